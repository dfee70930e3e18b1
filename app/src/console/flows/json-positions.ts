/**
 * Where each JSON Pointer of a JSON text sits in it (the value, and the key naming it), so a
 * validation issue at `/states/hello/on/0/to` is marked on the characters that hold it. A
 * small scanner of its own: the editor's syntax tree would tie this to CodeMirror, and the
 * text may be mid-edit (then only what was read before the mistake is known).
 */
export interface Span {
  from: number
  to: number
}

export function jsonPositions(text: string): Map<string, { value: Span; key?: Span }> {
  const found = new Map<string, { value: Span; key?: Span }>()
  let at = 0
  const space = () => {
    while (at < text.length && /\s/.test(text[at] as string)) at += 1
  }
  const string = (): string => {
    const begin = at
    at += 1
    while (at < text.length && text[at] !== '"') at += text[at] === '\\' ? 2 : 1
    at += 1
    return JSON.parse(text.slice(begin, at)) as string
  }
  const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1')
  const value = (pointer: string, key?: Span): void => {
    space()
    const begin = at
    const char = text[at]
    if (char === '{') {
      at += 1
      space()
      while (at < text.length && text[at] !== '}') {
        space()
        const keyStart = at
        const name = string()
        const keySpan = { from: keyStart, to: at }
        space()
        at += 1 // :
        value(`${pointer}/${escape(name)}`, keySpan)
        space()
        if (text[at] === ',') at += 1
        space()
      }
      at += 1
    } else if (char === '[') {
      at += 1
      space()
      let index = 0
      while (at < text.length && text[at] !== ']') {
        value(`${pointer}/${index}`)
        index += 1
        space()
        if (text[at] === ',') at += 1
        space()
      }
      at += 1
    } else if (char === '"') {
      string()
    } else {
      while (at < text.length && !/[\s,}\]]/.test(text[at] as string)) at += 1
    }
    found.set(pointer, { value: { from: begin, to: at }, key })
  }
  try {
    value('')
  } catch {
    // A text mid-edit: keep what was read.
  }
  return found
}

/**
 * The span to mark for an issue: a plain value itself ("nowhere" of a bad `to`), but the key
 * of an object or array member (one line, where the whole would be many); else the nearest
 * parent known.
 */
export function spanOf(positions: Map<string, { value: Span; key?: Span }>, pointer: string, text?: string): Span | null {
  let path = pointer
  for (;;) {
    const found = positions.get(path)
    if (found) {
      const opens = text?.[found.value.from]
      return found.key && (text === undefined || opens === '{' || opens === '[') ? found.key : found.value
    }
    if (path === '') return null
    path = path.slice(0, path.lastIndexOf('/'))
  }
}
