/**
 * Finds a repeated group that itself holds an unbounded repetition, such as `(a+)+`,
 * `(\w+\s?)*` or `(x*){2,9}`: the nested quantifiers behind catastrophic backtracking, where
 * one crafted line of visitor input keeps the regex engine (and the server) busy for minutes.
 * Returns the offending part of the pattern, or undefined when there is none.
 *
 * It reads a pattern that already compiles, so a small scanner is enough (a `{` that does not
 * form a quantifier is a plain character, as JavaScript reads it). It is deliberately strict: `([\w-]+\.)+` is
 * refused too, though a separator makes it safe in practice; bound the inner repetition
 * (`[\w-]{1,63}`) or use `capture` with `as: email` instead.
 */
export function nestedQuantifier(body: string): string | undefined {
  interface Group {
    start: number
    holdsUnbounded: boolean
  }
  const open: Group[] = []
  let top: Group = { start: 0, holdsUnbounded: false }
  /** The last atom, which a following quantifier applies to. */
  let atom: { start: number; group?: Group } | undefined
  let at = 0
  while (at < body.length) {
    const char = body[at] as string
    if (char === '\\') {
      atom = { start: at }
      at = skipEscape(body, at)
    } else if (char === '[') {
      atom = { start: at }
      at = skipClass(body, at)
    } else if (char === '(') {
      open.push(top)
      top = { start: at, holdsUnbounded: false }
      at = skipGroupPrefix(body, at)
      atom = undefined
    } else if (char === ')') {
      const closed = top
      top = open.pop() ?? { start: 0, holdsUnbounded: false }
      top.holdsUnbounded ||= closed.holdsUnbounded
      atom = { start: closed.start, group: closed }
      at += 1
    } else if (char === '*' || char === '+' || char === '?' || isBraceQuantifier(body, at)) {
      const quantifier = readQuantifier(body, at)
      if (atom?.group?.holdsUnbounded && quantifier.max > 1) return body.slice(atom.start, quantifier.end)
      if (quantifier.max > UNBOUNDED_ABOVE) top.holdsUnbounded = true
      atom = undefined
      at = quantifier.end
    } else {
      atom = char === '|' || char === '^' || char === '$' ? undefined : { start: at }
      at += 1
    }
  }
  return undefined
}

/** A bounded repetition this long is as dangerous as an unbounded one. */
const UNBOUNDED_ABOVE = 100

function skipEscape(body: string, at: number): number {
  const kind = body[at + 1]
  if ((kind === 'p' || kind === 'P' || kind === 'u' || kind === 'k') && (body[at + 2] === '{' || body[at + 2] === '<')) {
    const close = body.indexOf(body[at + 2] === '{' ? '}' : '>', at + 2)
    return close < 0 ? body.length : close + 1
  }
  return at + 2
}

function skipClass(body: string, at: number): number {
  let index = at + 1
  while (index < body.length && body[index] !== ']') index += body[index] === '\\' ? 2 : 1
  return index + 1
}

function skipGroupPrefix(body: string, at: number): number {
  if (body[at + 1] !== '?') return at + 1
  const kind = body[at + 2]
  if (kind === '<' && body[at + 3] !== '=' && body[at + 3] !== '!') {
    const close = body.indexOf('>', at + 3)
    return close < 0 ? body.length : close + 1
  }
  return at + (kind === '<' ? 4 : 3)
}

const BRACES = /\{(\d+)(,(\d*))?\}/y

function isBraceQuantifier(body: string, at: number): boolean {
  if (body[at] !== '{') return false
  BRACES.lastIndex = at
  return BRACES.test(body)
}

function readQuantifier(body: string, at: number): { max: number; end: number } {
  let max = body[at] === '?' ? 1 : Number.POSITIVE_INFINITY
  let end = at + 1
  if (body[at] === '{') {
    BRACES.lastIndex = at
    const braces = BRACES.exec(body)
    if (braces) {
      const lower = Number(braces[1])
      max = braces[2] === undefined ? lower : braces[3] === '' ? Number.POSITIVE_INFINITY : Number(braces[3])
      end = at + braces[0].length
    }
  }
  if (body[end] === '?') end += 1
  return { max, end }
}
