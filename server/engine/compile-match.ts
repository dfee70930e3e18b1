import { compileMatchPattern, type MatchPattern } from '../flow-language/match-pattern.ts'

/** How much of the input a `match` regex sees: a bound on the work one message can cause. */
export const MATCH_INPUT_LIMIT = 1000

const CACHE_LIMIT = 1000
const cache = new Map<string, MatchPattern | null>()

/**
 * The compiled matcher for a transition's `match` (JavaScript syntax run by the linear-time
 * RE2, see server/flow-language/match-pattern.ts). null when the pattern cannot run (invalid, using
 * syntax RE2 lacks such as a lookahead, or too large); the flow validator refuses those, so a
 * running flow only meets one if it was published before that check, and then it never
 * matches. Compiled once per pattern and cached (a bounded cache: the oldest entry goes first).
 */
export function compileMatch(pattern: string): MatchPattern | null {
  const cached = cache.get(pattern)
  if (cached !== undefined) return cached
  const compiled = compileMatchPattern(pattern)
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(pattern, compiled.ok ? compiled.pattern : null)
  return compiled.ok ? compiled.pattern : null
}

/** Whether `text` (its first MATCH_INPUT_LIMIT characters) matches the pattern. */
export function matchesPattern(pattern: string, text: string): boolean {
  return compileMatch(pattern)?.test(text.slice(0, MATCH_INPUT_LIMIT)) ?? false
}
