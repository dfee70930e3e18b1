import { RE2JS, RE2Set } from 're2js'
import { translateMatchPattern } from './translate-match-pattern.ts'

/**
 * How a transition's `match` is read and run. It is written in JavaScript syntax, where a
 * leading `(?i)` ignores case (JavaScript has no inline flags), and runs on RE2 (re2js), whose
 * time is linear in the text: no visitor message can make it backtrack for seconds, whatever
 * the pattern. The pattern is translated to RE2 syntax with the same meaning
 * (translate-match-pattern.ts); what RE2 cannot run is refused here.
 * The flow validator and the conversation engine (server/engine/compile-match.ts) both compile
 * through this function, so a pattern that validates is the pattern that runs.
 */
const IGNORE_CASE_PREFIX = '(?i)'

/**
 * The most instructions a compiled pattern may have. RE2's time is about proportional to
 * instructions x characters; with the engine's 1000-character input cap this keeps the worst
 * message in milliseconds, while a list of some forty keywords still fits. Measured in
 * scripts/bench/regex.ts.
 */
export const MAX_PROGRAM_SIZE = 300

/**
 * The memory each pattern's lazy DFA may fill with states before it starts afresh (re2js
 * defaults to 8 MB). A crafted text can make a pattern such as `a[ab]{250}$` create a new
 * state per character; with the engine caching up to 1000 patterns, 8 MB each would let
 * visitors grow the server by gigabytes. Past this budget RE2 falls back to its NFA, which is
 * as linear and, at this program size, no slower in the worst case (scripts/bench/regex.ts).
 */
const DFA_MEMORY = 256 * 1024

export interface MatchPatternParts {
  /** The regular expression itself, without the `(?i)` prefix. */
  body: string
  ignoreCase: boolean
}

export function matchPatternParts(source: string): MatchPatternParts {
  const ignoreCase = source.startsWith(IGNORE_CASE_PREFIX)
  return { body: ignoreCase ? source.slice(IGNORE_CASE_PREFIX.length) : source, ignoreCase }
}

/** What the matcher asks of a compiled pattern. */
export interface MatchPattern {
  test(text: string): boolean
}

export type CompiledMatchPattern =
  | { ok: true; pattern: MatchPattern }
  | { ok: false; code: 'invalid_regex' | 'unsupported_regex' | 'unsafe_regex'; message: string }

/** Compiles a `match` pattern, or says why it cannot run (the validator's finding). */
export function compileMatchPattern(source: string): CompiledMatchPattern {
  const { body, ignoreCase } = matchPatternParts(source)
  try {
    new RegExp(body, ignoreCase ? 'i' : '')
  } catch (error) {
    return { ok: false, code: 'invalid_regex', message: `is not a valid regular expression: ${(error as Error).message}` }
  }
  const translated = translateMatchPattern(body)
  if (!translated.ok) return { ok: false, code: 'unsupported_regex', message: `cannot be matched: ${translated.part} ${translated.why}` }
  let pattern: RE2JS
  try {
    pattern = RE2JS.compile(translated.source, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0)
  } catch (error) {
    // What JavaScript accepts and RE2 does not, once translated: repeat counts over 1000.
    return { ok: false, code: 'unsupported_regex', message: `cannot be matched: ${(error as Error).message} (repeat counts go up to 1000 in all)` }
  }
  const size = pattern.programSize()
  if (size > MAX_PROGRAM_SIZE) {
    return {
      ok: false,
      code: 'unsafe_regex',
      message:
        `compiles to ${size} matching steps, more than ${MAX_PROGRAM_SIZE}: it would run on every visitor message and cost too much. ` +
        'Lower the repeat counts, or split a long alternative list over several transitions',
    }
  }
  // A set of one: the only re2js entry point that takes a DFA memory budget. Built on the
  // first match, so validating a flow compiles each pattern once.
  let set: RE2Set | undefined
  const runnable = (): RE2Set => {
    set = new RE2Set(RE2Set.UNANCHORED, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0, DFA_MEMORY)
    set.add(translated.source)
    set.compile()
    return set
  }
  return { ok: true, pattern: { test: (text) => (set ?? runnable()).match(text).length > 0 } }
}
