/**
 * How a transition's `match` is read, shared by the validator and the conversation engine so
 * that a pattern that validates is exactly the pattern that runs: a leading `(?i)` ignores
 * case, and the rest is a JavaScript regular expression in Unicode mode (`u`), so `\p{L}`
 * works and sloppy escapes are reported at validation time instead of matching oddly.
 */
const IGNORE_CASE_PREFIX = '(?i)'

export interface MatchPatternParts {
  /** The regular expression itself, without the `(?i)` prefix. */
  body: string
  ignoreCase: boolean
}

export function matchPatternParts(source: string): MatchPatternParts {
  const ignoreCase = source.startsWith(IGNORE_CASE_PREFIX)
  return { body: ignoreCase ? source.slice(IGNORE_CASE_PREFIX.length) : source, ignoreCase }
}

/** Compiles a `match` pattern; throws a SyntaxError when JavaScript cannot. */
export function compileMatchPattern(source: string): RegExp {
  const { body, ignoreCase } = matchPatternParts(source)
  return new RegExp(body, ignoreCase ? 'iu' : 'u')
}
