#!/usr/bin/env bun
/**
 * npm run build: the widget and the desk app first (the binary embeds dist/widget/widget.js
 * and dist/app/), then one self-contained executable, dist/parley.
 */
import { $ } from 'bun'
import { mkdirSync } from 'node:fs'
import { MAX_REQUEST_HEAD_BYTES } from '../server/listen.ts'
import { buildApp } from './build-app.ts'
import { buildWidget } from './build-widget.ts'

const root = new URL('..', import.meta.url).pathname
mkdirSync(`${root}dist`, { recursive: true })

const started = performance.now()
const widget = await buildWidget()
console.log(`dist/widget/widget.js built (${(widget.gzipped / 1024).toFixed(1)} KB gzipped; widget-live.js ${(widget.liveGzipped / 1024).toFixed(1)} KB gzipped; widget-chat.js ${(widget.chatGzipped / 1024).toFixed(1)} KB gzipped)`)
const app = await buildApp()
console.log(`dist/app/ built (${(app.gzipped / 1024).toFixed(1)} KB gzipped)`)
const result = await Bun.build({
  // The checkpoint and backup workers run in threads of their own, so each is an entrypoint of its own.
  entrypoints: [`${root}server/main.ts`, `${root}server/db/checkpoint-worker.ts`, `${root}server/backups/backup-worker.ts`],
  // Request heads over Bun's 16 KiB default would get an empty 431 before Parley could answer.
  compile: { outfile: `${root}dist/parley`, execArgv: [`--max-http-header-size=${MAX_REQUEST_HEAD_BYTES}`] },
  // Elysia tells a query decode failure (422) from a crash by `error.constructor.name`, so
  // class names must survive: with renamed identifiers the range checks of query parameters
  // were skipped in the binary and raw strings reached SQL. (`keepNames` did not keep that
  // class's name in a compiled build; measured: identifiers kept cost 0.3 MB.)
  minify: { whitespace: true, syntax: true, identifiers: false },
  sourcemap: 'none',
  target: 'bun',
})
if (!result.success) {
  for (const log of result.logs) console.error(log)
  process.exit(1)
}
const size = (await $`stat -c %s ${root}dist/parley`.text()).trim()
console.log(`dist/parley built in ${Math.round(performance.now() - started)} ms (${(Number(size) / 1e6).toFixed(1)} MB)`)
