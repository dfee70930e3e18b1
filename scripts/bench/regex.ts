#!/usr/bin/env bun
/**
 * npm run bench:regex: what running `match` patterns on RE2 (re2js, linear time) costs against
 * JavaScript's backtracking RegExp, measured in the same run; machines are noisy, so the ratios
 * are the figures to compare.
 *  1. typical patterns (docs and fixtures) on typical visitor texts: median per match, RE2/RegExp;
 *  2. the reported ReDoS patterns: RegExp on a few dozen `a`s against RE2 on the whole input;
 *  3. the worst case the size bound allows: patterns built to keep many RE2 states alive, near
 *     MAX_PROGRAM_SIZE, each freshly compiled, on 1000-character adversarial texts (the engine's
 *     input cap), against the typical pattern on a 1000-character text; and the memory such a
 *     pattern keeps after 30 adversarial texts (its lazy DFA's states).
 */
import { compileMatchPattern, MAX_PROGRAM_SIZE, type MatchPattern, matchPatternParts } from '../../server/flow-language/match-pattern.ts'

function re2(source: string): MatchPattern {
  const compiled = compileMatchPattern(source)
  if (!compiled.ok) throw new Error(`${source}: ${compiled.message}`)
  return compiled.pattern
}

function regExp(source: string): RegExp {
  const { body, ignoreCase } = matchPatternParts(source)
  return new RegExp(body, ignoreCase ? 'i' : '')
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

/** Median milliseconds of one call, over `rounds` rounds of `batch` calls. */
function perCall(run: () => void, batch: number, rounds = 15): number {
  for (let i = 0; i < batch; i++) run()
  const rounds_: number[] = []
  for (let round = 0; round < rounds; round++) {
    const start = performance.now()
    for (let i = 0; i < batch; i++) run()
    rounds_.push((performance.now() - start) / batch)
  }
  return median(rounds_)
}

const fmt = (ms: number) => (ms < 0.01 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(3)} ms`)

const TYPICAL = ['(?i)\\b(price|pricing|quote)\\b', '(?i)\\b(demo|trial)\\b', '^[0-9]{5}$', '(?i)^y', '^\\[form Newsletter\\]', '(?i)^my age$', '(?i)\\bmy\\s+age\\b']
const TEXTS = [
  'Hi, what is your pricing for the team plan?',
  '75001',
  'yes please',
  '[form Newsletter] email: ada@example.com',
  'I would like to talk to a person about my order, it has not arrived yet and the tracking page says nothing.',
]

console.log('1. typical patterns on typical texts (median per match)')
let ratios: number[] = []
for (const source of TYPICAL) {
  const fast = regExp(source)
  const linear = re2(source)
  const js = perCall(() => TEXTS.forEach((text) => fast.test(text)), 2000) / TEXTS.length
  const ours = perCall(() => TEXTS.forEach((text) => linear.test(text)), 2000) / TEXTS.length
  ratios.push(ours / js)
  console.log(`   ${source.padEnd(34)} RegExp ${fmt(js).padStart(10)}  RE2 ${fmt(ours).padStart(10)}  ratio ${(ours / js).toFixed(1)}x`)
}
console.log(`   median ratio RE2/RegExp: ${median(ratios).toFixed(1)}x`)

const longText = 'I would like to know more about your plans and whether you offer a discount for schools. '.repeat(12).slice(0, 1000)
const typicalLong = perCall(() => re2(TYPICAL[0] as string).test(longText), 50)
console.log(`   baseline for 3: ${TYPICAL[0]} freshly compiled, on a 1000-character text: ${fmt(typicalLong)}`)

console.log('\n2. the reported ReDoS patterns (visitor text: `a`s then "!")')
// The target test/flow-language/match-pattern.test.ts left to this bench (a timing, so not a test's):
// each reported pattern on 50,000 of its characters within 100x the typical pattern on the same text.
const REDOS_TARGET = 100
const typical50k = perCall(() => re2(TYPICAL[0] as string).test(`${'a'.repeat(50_000)}!`), 1, 3)
let worstReDoS = 0
for (const source of ['(a|aa)*b', '(a|a)*$', '^(\\w|\\d)+$', '^(a?){30}a{30}$']) {
  const fast = regExp(source)
  const jsLength = source.startsWith('^(a?)') ? 26 : 24
  const js = perCall(() => fast.test(`${'a'.repeat(jsLength)}!`), 1, 3)
  const linear = re2(source)
  const ours1000 = perCall(() => linear.test(`${'a'.repeat(999)}!`), 20, 5)
  const ours50k = perCall(() => linear.test(`${'a'.repeat(50_000)}!`), 1, 3)
  worstReDoS = Math.max(worstReDoS, ours50k / typical50k)
  console.log(`   ${source.padEnd(18)} RegExp, ${jsLength} a's: ${fmt(js).padStart(10)}   RE2, 1000: ${fmt(ours1000).padStart(10)}   RE2, 50,000: ${fmt(ours50k).padStart(10)}`)
}
console.log(
  `   worst of them on 50,000 characters: ${worstReDoS.toFixed(1)}x the typical pattern (${fmt(typical50k)}), target <= ${REDOS_TARGET}x: ${worstReDoS <= REDOS_TARGET ? 'met' : 'NOT MET'}`,
)

console.log(`\n3. worst cases up to the size bound (${MAX_PROGRAM_SIZE} instructions), fresh compile, 1000-character texts`)
let seed = 42
const random = (alphabet: string) => Array.from({ length: 1000 }, () => alphabet[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % alphabet.length]).join('')
const adversarial = ['a'.repeat(1000), `${'a'.repeat(999)}!`, `!${'a'.repeat(999)}`, random('ab'), random('ab!'), random('abcdefghij '), random('ab')]
const families: [string, (k: number) => string][] = [
  ['(?:\\w?){k}\\w{k}', (k) => `(?:\\w?){${k}}\\w{${k}}`],
  ['a[ab]{k}$', (k) => `a[ab]{${k}}$`],
  ['a.{k}b', (k) => `a.{${k}}b`],
  ['(?:a|ab|b)*a(?:.|\\w){k}z', (k) => `(?:a|ab|b)*a(?:.|\\w){${k}}z`],
  ['k keywords', (k) => `(?i)\\b(?:${Array.from({ length: k }, (_, i) => `w${i.toString(36)}rd`).join('|')})\\b`],
]
let worstRatio = 0
for (const [name, make] of families) {
  for (const k of [10, 50, 100, 150, 200, 290]) {
    const compiled = compileMatchPattern(make(k))
    if (!compiled.ok) continue
    const times: number[] = []
    for (let round = 0; round < 3; round++) {
      const fresh = re2(make(k))
      for (const text of adversarial) {
        const start = performance.now()
        fresh.test(text)
        times.push(performance.now() - start)
      }
    }
    // The median of the three rounds' worst text: one GC pause is not the pattern's cost.
    const perRound = [0, 1, 2].map((round) => Math.max(...times.slice(round * adversarial.length, (round + 1) * adversarial.length)))
    const worst = median(perRound)
    worstRatio = Math.max(worstRatio, worst / typicalLong)
    console.log(`   ${name.padEnd(26)} k=${String(k).padEnd(4)} worst ${fmt(worst).padStart(10)}  ratio to baseline ${(worst / typicalLong).toFixed(0)}x`)
  }
}
console.log(`   worst ratio: ${worstRatio.toFixed(0)}x the typical pattern on the same length`)

const heapBefore = (Bun.gc(true), process.memoryUsage().heapUsed)
const kept: MatchPattern[] = []
for (let p = 0; p < 10; p++) {
  const pattern = re2(`a[ab]{${290 - p}}$`)
  kept.push(pattern)
  for (let i = 0; i < 30; i++) pattern.test(random('ab'))
}
const heapAfter = (Bun.gc(true), process.memoryUsage().heapUsed)
console.log(`   memory kept per pattern (a[ab]{290}$ after 30 random texts): ${((heapAfter - heapBefore) / kept.length / 1e6).toFixed(2)} MB`)
