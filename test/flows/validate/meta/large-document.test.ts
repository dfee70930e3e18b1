import { expect, test } from 'bun:test'
import { validateMetaFlow } from '../../../../server/flows/validate/meta.ts'
import { generateLargeFlow } from '../../../../scripts/bench/meta-flow.ts'

// Timing is the benchmark's job (npm run bench:meta); this only shows such a document is valid.
test('a generated document of about 5 MB validates with no errors', () => {
  const document = generateLargeFlow()
  const bytes = Buffer.byteLength(JSON.stringify(document), 'utf8')
  expect(bytes).toBeGreaterThan(4.5 * 1024 * 1024)
  expect(bytes).toBeLessThan(5.5 * 1024 * 1024)
  expect(validateMetaFlow(document)).toEqual({ errors: [], warnings: [] })
})

test('the same document with one broken binding deep inside is refused at that binding', () => {
  const document = generateLargeFlow() as { screens: { layout: { children: { children: Record<string, unknown>[] }[] } }[] }
  const heading = document.screens[73]?.layout.children[0]?.children[0] as Record<string, unknown>
  heading.text = '${data.subtitle}'
  expect(validateMetaFlow(document).errors.map((issue) => `${issue.code} ${issue.path}`)).toEqual([
    'INVALID_SCREEN_DYNAMIC_DATA /screens/73/layout/children/0/children/0/text',
  ])
})
