import { expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { MetaCode } from '../../../../server/flows/validate/meta/codes.ts'

const docs = readFileSync(join(import.meta.dir, '../../../../docs/meta-flows.md'), 'utf8')
/** Codes in the first column of the code tables: lines like "| `CODE` | error | ...". */
const documented = new Set([...docs.matchAll(/^\| `([A-Z_]+)` \| (error|warning|error or warning) \|/gm)].map((match) => match[1] as string))

test('docs/meta-flows.md explains every code the validator reports', () => {
  const missing = Object.values(MetaCode).filter((code) => !documented.has(code))
  expect(missing).toEqual([])
})

test('docs/meta-flows.md lists no code the validator does not report', () => {
  const known = new Set<string>(Object.values(MetaCode))
  expect([...documented].filter((code) => !known.has(code))).toEqual([])
})
