/**
 * Reads the curl examples of a markdown page so that tests can run them in-process: each
 * ```sh block holds one `curl` command and a `# → STATUS` line; a ```json block right after
 * it shows the answer. Only the subset of shell and curl the docs use is understood (quotes,
 * `$VAR`, line continuations; -s, -X, -H, -d), and anything else fails loudly rather than
 * being skipped, so a page cannot carry an example that the tests do not run.
 */

export interface CurlExample {
  /** The nearest heading above the example, and its line in the page, for test names. */
  heading: string
  line: number
  command: string
  status: number
  /** The JSON answer shown after the command, if any. */
  response?: unknown
}

export interface CurlRequest {
  method: string
  url: string
  headers: Record<string, string>
  body?: string
}

export function curlExamples(markdown: string): CurlExample[] {
  const lines = markdown.split('\n')
  const examples: CurlExample[] = []
  let heading = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    if (line.startsWith('#')) heading = line.replace(/^#+\s*/, '')
    if (line.trim() !== '```sh') continue
    const start = i + 1
    const block = fenced(lines, start)
    i = start + block.length
    const statusLine = block.find((text) => /^#\s*→\s*\d{3}\s*$/.test(text.trim()))
    if (!statusLine) throw new Error(`line ${start}: the sh block has no "# → STATUS" line`)
    const command = block.filter((text) => !text.trim().startsWith('#')).join('\n').trim()
    const example: CurlExample = { heading, line: start, command, status: Number(/\d{3}/.exec(statusLine)?.[0]) }
    let next = i + 1
    while (lines[next]?.trim() === '') next++
    if (lines[next]?.trim() === '```json') {
      const json = fenced(lines, next + 1)
      try {
        example.response = JSON.parse(json.join('\n'))
      } catch (error) {
        throw new Error(`line ${next + 1}: the json block does not parse: ${(error as Error).message}`)
      }
    }
    examples.push(example)
  }
  return examples
}

function fenced(lines: string[], start: number): string[] {
  const end = lines.findIndex((text, index) => index >= start && text.trim() === '```')
  if (end < 0) throw new Error(`line ${start}: a fenced block is not closed`)
  return lines.slice(start, end)
}

/** Turns one documented curl command into a request, with shell variables taken from `vars`. */
export function parseCurl(command: string, vars: Record<string, string>): CurlRequest {
  const [program, ...args] = shellWords(command, vars)
  if (program !== 'curl') throw new Error(`not a curl command: ${command}`)
  const request: CurlRequest = { method: '', url: '', headers: {} }
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string
    const value = () => {
      const next = args[++i]
      if (next === undefined) throw new Error(`${arg} needs a value`)
      return next
    }
    if (arg === '-s' || arg === '--silent') continue
    else if (arg === '-X' || arg === '--request') request.method = value()
    else if (arg === '-H' || arg === '--header') {
      const header = value()
      const colon = header.indexOf(':')
      if (colon < 1) throw new Error(`malformed header: ${header}`)
      request.headers[header.slice(0, colon).trim().toLowerCase()] = header.slice(colon + 1).trim()
    } else if (arg === '-d' || arg === '--data' || arg === '--data-raw') request.body = value()
    else if (arg.startsWith('-')) throw new Error(`curl option ${arg} is not supported by the docs runner`)
    else if (request.url) throw new Error(`two URLs in one command: ${request.url} and ${arg}`)
    else request.url = arg
  }
  if (!request.url) throw new Error(`no URL in: ${command}`)
  // curl's own defaults: POST when there is data, GET otherwise.
  request.method ||= request.body === undefined ? 'GET' : 'POST'
  return request
}

/** Splits like a POSIX shell would for this subset: '...' is literal, "..." and bare words expand $VAR. */
export function shellWords(source: string, vars: Record<string, string>): string[] {
  const words: string[] = []
  let word: string | null = null
  let i = 0
  const expand = () => {
    const match = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(source.slice(i))
    if (!match) throw new Error(`a lone $ at ${i} in: ${source}`)
    const name = (match[1] ?? match[2]) as string
    const value = vars[name]
    if (value === undefined) throw new Error(`the docs use $${name}, which the runner does not know`)
    i += match[0].length
    return value
  }
  while (i < source.length) {
    const ch = source[i] as string
    if (ch === '\\' && source[i + 1] === '\n') {
      i += 2
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word)
      word = null
      i++
    } else if (ch === "'") {
      const end = source.indexOf("'", i + 1)
      if (end < 0) throw new Error(`an unclosed ' in: ${source}`)
      word = (word ?? '') + source.slice(i + 1, end)
      i = end + 1
    } else if (ch === '"') {
      word ??= ''
      i++
      while (source[i] !== '"') {
        if (i >= source.length) throw new Error(`an unclosed " in: ${source}`)
        if (source[i] === '\\' && '"\\$`'.includes(source[i + 1] ?? '')) {
          word += source[i + 1]
          i += 2
        } else if (source[i] === '$') word += expand()
        else word += source[i++]
      }
      i++
    } else if (ch === '$') {
      word = (word ?? '') + expand()
    } else if ('|;&<>`()*?[]{}'.includes(ch)) {
      throw new Error(`shell syntax ${ch} is not supported by the docs runner: ${source}`)
    } else {
      word = (word ?? '') + ch
      i++
    }
  }
  if (word !== null) words.push(word)
  return words
}

/** Keys whose documented value must be the actual one; others (ids, times, random secrets) need only the same type. */
const EXACT_KEYS = new Set([
  'type', 'code', 'status', 'name', 'is_active', 'greeting_message', 'allowed_domains', 'widget_config', 'identity_secret',
  'default_country', 'webhook_url', 'phone_number_id', 'access_token', 'verify_token', 'app_secret', 'path', 'message', 'total',
])

/** Where the documented answer and the actual one differ in shape (or in a stable value). */
export function shapeDifferences(documented: unknown, actual: unknown, at = ''): string[] {
  const kind = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value)
  if (kind(documented) !== kind(actual)) return [`${at || '/'}: documented ${kind(documented)}, got ${kind(actual)}`]
  if (Array.isArray(documented) && Array.isArray(actual)) {
    if (documented.length !== actual.length) return [`${at}: documented ${documented.length} items, got ${actual.length}`]
    return documented.flatMap((item, index) => shapeDifferences(item, actual[index], `${at}/${index}`))
  }
  if (kind(documented) === 'object') {
    const doc = documented as Record<string, unknown>
    const got = actual as Record<string, unknown>
    const keys = (object: object) => Object.keys(object).sort().join(', ')
    if (keys(doc) !== keys(got)) return [`${at || '/'}: documented keys ${keys(doc)}, got ${keys(got)}`]
    return Object.keys(doc).flatMap((key) => {
      const path = `${at}/${key}`
      if (EXACT_KEYS.has(key) && JSON.stringify(doc[key]) !== JSON.stringify(got[key])) {
        return [`${path}: documented ${JSON.stringify(doc[key])}, got ${JSON.stringify(got[key])}`]
      }
      return shapeDifferences(doc[key], got[key], path)
    })
  }
  return []
}
