import { expect } from 'bun:test'
import { type CurlExample, parseCurl, shapeDifferences } from './curl-examples.ts'
import type { CallResult, TestApp } from './test-app.ts'

/** Where every documented command is addressed: the quick start's server. */
export const DOCS_ORIGIN = 'http://localhost:3000'

/**
 * Sends one documented curl command to the in-process app (the command's own headers, no
 * test key) and checks the documented status and, when the page shows one, the answer's
 * shape, compared by `differences`.
 */
export async function runCurlExample(
  app: TestApp,
  example: CurlExample,
  vars: Record<string, string>,
  differences: (documented: unknown, actual: unknown) => string[] = shapeDifferences,
): Promise<CallResult> {
  const request = parseCurl(example.command, vars)
  const url = new URL(request.url)
  expect(url.origin).toBe(DOCS_ORIGIN)
  const result = await app.call(request.method, url.pathname + url.search, { key: null, headers: request.headers, rawBody: request.body })
  expect({ status: result.status, body: result.body }).toMatchObject({ status: example.status })
  if (example.response !== undefined) expect(differences(example.response, result.body)).toEqual([])
  return result
}
