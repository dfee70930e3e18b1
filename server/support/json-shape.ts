export interface JsonShapeLimits {
  /** Deepest nesting of objects and arrays. */
  maxDepth: number
  /** Object members in the whole document. */
  maxKeys: number
}

export type JsonShapeBreach = { limit: 'depth'; max: number } | { limit: 'keys'; max: number }

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const COLON = 0x3a

/**
 * Measures a JSON text's nesting and object members in one pass over its characters, before
 * it is parsed: a parser, a schema validator and an error message all walk a document
 * recursively, so a small body nested 20,000 deep or carrying 400,000 keys can hold the
 * serving thread for seconds. Malformed text is left for JSON.parse to explain; this only
 * says whether the text is within bounds.
 */
export function jsonShapeBreach(text: string, limits: JsonShapeLimits): JsonShapeBreach | null {
  let depth = 0
  let keys = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index)
    if (inString) {
      if (code === BACKSLASH) index++
      else if (code === QUOTE) inString = false
      continue
    }
    if (code === QUOTE) inString = true
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > limits.maxDepth) return { limit: 'depth', max: limits.maxDepth }
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--
    // Outside strings a colon only ever separates an object member's name from its value.
    else if (code === COLON && ++keys > limits.maxKeys) return { limit: 'keys', max: limits.maxKeys }
  }
  return null
}

/** The sentence a problem or a close reason gives for a breach. */
export function describeJsonShapeBreach(breach: JsonShapeBreach, what: string): string {
  return breach.limit === 'depth'
    ? `${what} is nested more than ${breach.max} levels deep`
    : `${what} has more than ${breach.max} object members`
}
