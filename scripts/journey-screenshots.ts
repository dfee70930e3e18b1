#!/usr/bin/env bun
/**
 * npm run screenshots:journeys: builds dist/parley, then plays the journeys of test/journeys/
 * (and the widget's pinned-log test) with PARLEY_SCREENSHOTS_TO_DOCS=1, so that the pictures
 * each story takes of what its actors see land in docs/journeys/ for the docs to show. An
 * ordinary `npm test` takes the same pictures into the temp folder instead.
 */
import { spawnSync } from 'bun'

const root = new URL('..', import.meta.url).pathname
const run = (command: string[], env: Record<string, string> = {}) => {
  const result = spawnSync(command, { cwd: root, stdout: 'inherit', stderr: 'inherit', env: { ...process.env, ...env } })
  if (result.exitCode !== 0) process.exit(result.exitCode ?? 1)
}
run([process.execPath, `${root}scripts/build.ts`])
run([process.execPath, 'test', '--timeout=20000', 'test/journeys', 'test/e2e/widget-pinned-log.test.ts'], { PARLEY_SCREENSHOTS_TO_DOCS: '1', PARLEY_TEST_BINARY_BUILT: '1' })
console.log('docs/journeys/ remade')
