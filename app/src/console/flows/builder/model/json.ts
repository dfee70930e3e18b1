/** Plain JSON helpers the builder's model shares: it reads drafts, which may be any shape. */
export type Json = Record<string, unknown>

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

export const objectsIn = (value: unknown): { value: Json; index: number }[] =>
  Array.isArray(value) ? value.flatMap((item, index) => (isObject(item) ? [{ value: item, index }] : [])) : []

/** A JSON Pointer's tokens, `~1` and `~0` decoded (RFC 6901). */
export const tokensOf = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'))

export const pointerOf = (...tokens: (string | number)[]): string => tokens.map((token) => `/${String(token).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')

/** The value at a pointer, or undefined. */
export function readAt(root: unknown, pointer: string): unknown {
  let at: unknown = root
  for (const token of tokensOf(pointer)) {
    if (Array.isArray(at)) at = at[Number(token)]
    else if (isObject(at) && Object.hasOwn(at, token)) at = at[token]
    else return undefined
  }
  return at
}

/**
 * A copy of `root` with the value at `pointer` set (or removed when `value` is undefined),
 * creating objects on the way. Keys keep their order: a key that exists keeps its place, a new
 * one goes last; everything else is copied as it was.
 */
export function writeAt(root: Json, pointer: string, value: unknown): Json {
  const tokens = tokensOf(pointer)
  const copy = structuredClone(root)
  let at: Json | unknown[] = copy
  for (const [index, token] of tokens.entries()) {
    const last = index === tokens.length - 1
    if (Array.isArray(at)) {
      const position = Number(token)
      if (last) {
        if (value === undefined) at.splice(position, 1)
        else at[position] = value
        return copy
      }
      if (!isObject(at[position]) && !Array.isArray(at[position])) at[position] = {}
      at = at[position] as Json
    } else {
      if (last) {
        if (value === undefined) delete at[token]
        else at[token] = value
        return copy
      }
      if (!isObject(at[token]) && !Array.isArray(at[token])) at[token] = {}
      at = at[token] as Json
    }
  }
  return isObject(value) ? value : copy
}
