/**
 * The API reference: a page that reads /api/dev/v1/openapi.json and lays it out. Everything
 * is inline (no CDN) so it works on a server with no internet access; all text goes through
 * textContent, never innerHTML.
 */
export const referencePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Parley API reference</title>
<style>
  :root { --ink:#1b1f24; --muted:#5b6470; --line:#e3e7ec; --accent:#0066ff; font-family: system-ui, sans-serif; color: var(--ink); }
  body { margin: 0; display: grid; grid-template-columns: 280px 1fr; min-height: 100vh; }
  nav { border-right: 1px solid var(--line); padding: 16px; position: sticky; top: 0; height: 100vh; overflow: auto; box-sizing: border-box; }
  nav h1 { font-size: 18px; margin: 0 0 12px; }
  nav h2 { font-size: 12px; text-transform: uppercase; color: var(--muted); margin: 16px 0 4px; }
  nav a { display: block; font-size: 13px; color: var(--ink); text-decoration: none; padding: 3px 0; }
  nav a:hover { color: var(--accent); }
  main { padding: 24px 40px; max-width: 980px; }
  section.op { border-bottom: 1px solid var(--line); padding: 20px 0; }
  .method { display: inline-block; min-width: 58px; font: 600 12px ui-monospace, monospace; padding: 2px 6px; border-radius: 4px; color: #fff; text-align: center; }
  .get { background: #0a7d3b; } .post { background: #0057d9; } .patch { background: #a05a00; } .delete { background: #b3261e; } .put { background: #6b3fa0; }
  code, pre { font-family: ui-monospace, monospace; font-size: 13px; }
  pre { background: #f6f8fa; padding: 12px; overflow: auto; border-radius: 6px; }
  table { border-collapse: collapse; width: 100%; font-size: 13px; margin: 8px 0; }
  th, td { text-align: left; border-bottom: 1px solid var(--line); padding: 6px; vertical-align: top; }
  .muted { color: var(--muted); }
  @media (max-width: 760px) { body { grid-template-columns: 1fr; } nav { position: static; height: auto; } main { padding: 16px; } }
</style>
</head>
<body>
<nav id="nav"><h1>Parley API</h1></nav>
<main id="main"><p class="muted">Loading the OpenAPI document...</p></main>
<script>
(async () => {
  const el = (tag, props = {}, ...children) => {
    const node = document.createElement(tag)
    for (const [key, value] of Object.entries(props)) {
      if (key === 'text') node.textContent = value
      else node.setAttribute(key, value)
    }
    for (const child of children) if (child) node.append(child)
    return node
  }
  const main = document.getElementById('main')
  const nav = document.getElementById('nav')
  let doc
  try {
    doc = await (await fetch('openapi.json')).json()
  } catch (error) {
    main.replaceChildren(el('p', { text: 'Could not load openapi.json: ' + error }))
    return
  }
  const resolve = (schema) => schema && schema.$ref ? doc.components.schemas[schema.$ref.split('/').pop()] : schema
  const typeOf = (schema) => {
    schema = resolve(schema) || {}
    if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ')
    if (schema.const !== undefined) return JSON.stringify(schema.const)
    if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ')
    if (schema.type === 'array') return typeOf(schema.items) + '[]'
    return schema.type || 'any'
  }
  const constraints = (schema) => {
    schema = resolve(schema) || {}
    const out = []
    for (const key of ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems', 'maxItems', 'pattern', 'format', 'default'])
      if (schema[key] !== undefined) out.push(key + ': ' + JSON.stringify(schema[key]))
    if (schema.description) out.unshift(schema.description)
    return out.join(' · ')
  }
  const fieldRows = (schema, prefix, rows) => {
    schema = resolve(schema) || {}
    const required = new Set(schema.required || [])
    for (const [name, prop] of Object.entries(schema.properties || {})) {
      rows.push(el('tr', {}, el('td', {}, el('code', { text: prefix + name })), el('td', { text: typeOf(prop) }),
        el('td', { text: required.has(name) ? 'yes' : '' }), el('td', { text: constraints(prop) })))
      const inner = resolve(prop)
      if (inner && inner.type === 'object') fieldRows(inner, prefix + name + '.', rows)
      if (inner && inner.type === 'array' && resolve(inner.items) && resolve(inner.items).type === 'object') fieldRows(inner.items, prefix + name + '[].', rows)
    }
    return rows
  }
  const fieldTable = (schema) => {
    const rows = fieldRows(schema, '', [])
    if (rows.length === 0) return el('p', { class: 'muted', text: typeOf(schema) })
    return el('table', {}, el('tr', {}, ...['Field', 'Type', 'Required', 'Notes'].map((h) => el('th', { text: h }))), ...rows)
  }
  const groups = new Map()
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = (op.tags && op.tags[0]) || 'General'
      if (!groups.has(tag)) groups.set(tag, [])
      groups.get(tag).push({ path, method, op })
    }
  }
  main.replaceChildren(el('h1', { text: doc.info.title + ' ' + doc.info.version }), el('p', { class: 'muted', text: doc.info.description }),
    el('p', {}, el('a', { href: 'openapi.json', text: 'openapi.json' })))
  for (const [tag, ops] of groups) {
    nav.append(el('h2', { text: tag }))
    main.append(el('h2', { text: tag }))
    for (const { path, method, op } of ops) {
      const id = op.operationId
      nav.append(el('a', { href: '#' + id }, el('span', { class: 'method ' + method, text: method.toUpperCase() }), ' ' + (op.summary || path)))
      const section = el('section', { class: 'op', id }, el('h3', {}, el('span', { class: 'method ' + method, text: method.toUpperCase() }), ' ', el('code', { text: path })))
      if (op.summary) section.append(el('p', {}, el('strong', { text: op.summary })))
      if (op.description) section.append(el('p', { text: op.description }))
      if (op.parameters && op.parameters.length) {
        section.append(el('h4', { text: 'Parameters' }), el('table', {}, el('tr', {}, ...['Name', 'In', 'Type', 'Notes'].map((h) => el('th', { text: h }))),
          ...op.parameters.map((p) => el('tr', {}, el('td', {}, el('code', { text: p.name })), el('td', { text: p.in }), el('td', { text: typeOf(p.schema) }), el('td', { text: constraints(p.schema) })))))
      }
      const body = op.requestBody && op.requestBody.content['application/json']
      if (body) section.append(el('h4', { text: 'Request body' }), fieldTable(body.schema))
      section.append(el('h4', { text: 'Responses' }))
      for (const [status, response] of Object.entries(op.responses || {})) {
        const content = response.content && Object.values(response.content)[0]
        section.append(el('p', {}, el('code', { text: status }), ' ' + response.description))
        if (content && !String(status).match(/^[45]/)) section.append(fieldTable(content.schema))
      }
      main.append(section)
    }
  }
  main.append(el('h2', { text: 'Errors' }), el('p', { text: 'Every error is application/problem+json: {type, title, status, detail, code, errors?: [{path, message}]}. path is a JSON Pointer into the part of the request that failed.' }), fieldTable(doc.components.schemas.Problem))
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView()
})()
</script>
</body>
</html>
`
