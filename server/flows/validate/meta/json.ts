/** Small helpers for reading untrusted, already-parsed JSON. */

export type JsonObject = Record<string, unknown>

/**
 * How deep the validator reads values whose nesting the author controls (payloads, data
 * models, component trees). Real flows stay far below it; it keeps recursion bounded.
 */
export const MAX_DEPTH = 64

/** The value types a Flow JSON data model can declare (and that bindings are checked against). */
export type DataType = 'string' | 'number' | 'boolean' | 'array' | 'object'

export const DATA_TYPES: readonly DataType[] = ['string', 'number', 'boolean', 'array', 'object']

/** Whether objects and arrays nest deeper than `limit` anywhere in `root` (iterative: no recursion). */
export function nestsDeeperThan(root: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[root, 1]]
  while (stack.length > 0) {
    const [value, depth] = stack.pop() as [unknown, number]
    if (depth > limit) return true
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) stack.push([item, depth + 1])
    } else {
      for (const key in value as JsonObject) {
        const item = (value as JsonObject)[key]
        if (typeof item === 'object' && item !== null) stack.push([item, depth + 1])
      }
    }
  }
  return false
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The JSON type of a value, in the words a message uses ("null", "array", "object", ...). */
export function jsonTypeOf(value: unknown): 'null' | DataType | 'undefined' {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  const type = typeof value
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'object') return type
  return 'undefined'
}

export function hasOwn(object: JsonObject, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key)
}

/**
 * Length in characters as people count them (code points, so an emoji counts once). A string's
 * UTF-16 `length` is never below this, so callers only need it when `length` exceeds a limit.
 */
export function charLength(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0xd800 || code > 0xdbff) count++
  }
  return count
}

/** "a", "b" and "c" */
export function listOf(items: readonly string[]): string {
  const quoted = items.map((item) => `'${item}'`)
  if (quoted.length <= 1) return quoted.join('')
  return `${quoted.slice(0, -1).join(', ')} and ${quoted.at(-1)}`
}

/**
 * "'a', 'b' and 7 more": names a few of many without walking them all, so that messages stay
 * short and cheap however large the document. `total` may be unknown (null).
 */
export function listSome(items: Iterable<string>, total: number | null, max = 8): string {
  const shown: string[] = []
  let more = false
  for (const item of items) {
    if (shown.length === max) {
      more = true
      break
    }
    shown.push(item)
  }
  const quoted = shown.map((item) => `'${item}'`).join(', ')
  if (total !== null && total > shown.length) return `${quoted} and ${total - shown.length} more`
  return more ? `${quoted}, ...` : listOf(shown)
}

/** The first keys of an object, without listing all of them. */
export function* keysOf(object: JsonObject): Generator<string> {
  for (const key in object) yield key
}

/** 'a', 'b' or 'c' */
export function oneOf(items: readonly string[]): string {
  const quoted = items.map((item) => `'${item}'`)
  if (quoted.length <= 1) return quoted.join('')
  return `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`
}

/** One JSON Pointer reference token (RFC 6901); most keys need no escaping, so check first. */
export function token(key: string): string {
  return key.includes('~') || key.includes('/') ? key.replaceAll('~', '~0').replaceAll('/', '~1') : key
}
