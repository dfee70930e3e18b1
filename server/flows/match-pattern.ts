/**
 * How a transition's `match` is read: a leading `(?i)` ignores case (JavaScript has no inline
 * flags) and the rest is a JavaScript regular expression, compiled without flags otherwise.
 * The conversation engine compiles patterns the same way (server/engine/compile-match.ts), so
 * a pattern that validates is the pattern that runs.
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
  return new RegExp(body, ignoreCase ? 'i' : '')
}
