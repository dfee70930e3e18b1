#!/usr/bin/env bun
/**
 * npm run fuzz [-- --seed N --runs N --only INDEX]: the OpenAPI-driven fuzz suite with a long
 * budget against a freshly built dist/parley. Prints counts by status, by route and by kind of
 * mutation, then every invariant violation with the request that caused it. The seed and the
 * count reproduce a run (FUZZ_SEED and FUZZ_RUNS work too); --only replays one request of it.
 * Exits 1 when anything was violated.
 */
import fc from 'fast-check'
import { parseArgs } from 'node:util'
import { compiledParley } from '../test/support/compiled-parley.ts'
import { formatReport, runFuzz, startFuzzParley } from '../test/fuzz/support/fuzz-run.ts'
import { anyRequestArbitrary, type OpenApiDocument, operationsOf } from '../test/fuzz/support/openapi-arbitraries.ts'

const { values } = parseArgs({
  args: Bun.argv.slice(2),
  options: { seed: { type: 'string' }, runs: { type: 'string' }, only: { type: 'string' } },
})
const seed = Number(values.seed ?? process.env.FUZZ_SEED ?? Date.now() % 2 ** 31)
const runs = Number(values.runs ?? process.env.FUZZ_RUNS ?? 20_000)
if (!Number.isSafeInteger(seed) || !Number.isSafeInteger(runs) || runs < 1) {
  console.error('usage: npm run fuzz -- [--seed N] [--runs N] [--only INDEX]')
  process.exit(2)
}

const binary = compiledParley()
const parley = await startFuzzParley(binary)
try {
  const document = (await (await fetch(`${parley.url}/api/dev/v1/openapi.json`)).json()) as OpenApiDocument
  const operations = operationsOf(document)
  let plans = fc.sample(anyRequestArbitrary(operations, parley.scenes.length), { seed, numRuns: runs })
  if (values.only !== undefined) plans = plans.slice(Number(values.only), Number(values.only) + 1)
  console.log(`fuzzing ${operations.length} operations with seed ${seed}, ${plans.length} requests`)
  const started = performance.now()
  const report = await runFuzz(parley, plans, {
    onProgress: (done) => {
      if (done % 1000 === 0) console.error(`  ${done} requests, ${((performance.now() - started) / 1000).toFixed(0)} s`)
    },
  })
  console.log(formatReport(report))
  console.log(`\n${((performance.now() - started) / 1000).toFixed(1)} s; replay with: npm run fuzz -- --seed ${seed} --runs ${runs}`)
  process.exitCode = report.violations.length > 0 ? 1 : 0
} finally {
  await parley.stop()
}
