/** How much of the input a `match` regex sees: a bound on the work one message can cause. */
export const MATCH_INPUT_LIMIT = 1000

const CASE_INSENSITIVE = '(?i)'
const CACHE_LIMIT = 1000
const cache = new Map<string, RegExp | null>()

/**
 * The RegExp for a transition's `match`: JavaScript syntax, where a leading `(?i)` means
 * ignore case (JavaScript has no inline flags). null when the pattern does not compile; the
 * flow validator refuses those, so a running flow only meets one if that check was skipped.
 * Compiled once per pattern and cached (a bounded cache: the oldest entry goes first).
 */
export function compileMatch(pattern: string): RegExp | null {
  const cached = cache.get(pattern)
  if (cached !== undefined) return cached
  let compiled: RegExp | null
  try {
    compiled = pattern.startsWith(CASE_INSENSITIVE) ? new RegExp(pattern.slice(CASE_INSENSITIVE.length), 'i') : new RegExp(pattern)
  } catch {
    compiled = null
  }
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string)
  cache.set(pattern, compiled)
  return compiled
}

/** Whether `text` (its first MATCH_INPUT_LIMIT characters) matches the pattern. */
export function matchesPattern(pattern: string, text: string): boolean {
  return compileMatch(pattern)?.test(text.slice(0, MATCH_INPUT_LIMIT)) ?? false
}
