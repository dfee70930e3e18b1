#!/usr/bin/env bun
/**
 * npm run bench:widget: in headless Chromium, the time from inserting the widget's script
 * element to (a) the bubble drawn and (b) the socket connected (the welcome received), against
 * a baseline measured in the same run: a trivial script of the same size, served the same way,
 * that draws a div and then makes one round trip over a bare WebSocket. The widget's extra
 * work (parse, config fetch, Solid render, hello/welcome) is what the ratios show.
 *
 * Each run is a fresh browser context (a first visit: nothing cached), then a reload of it
 * (a repeat visit: the script revalidated from the cache). Widget and baseline alternate.
 * Parley runs as its own process (server/main.ts serve) over a seeded database.
 */
import { spawn } from 'bun'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type Page } from 'playwright-core'
import { createApp } from '../../server/app.ts'
import { loadConfig } from '../../server/config.ts'
import { migrate } from '../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../server/db/open-database.ts'
import { createLogger } from '../../server/support/logger.ts'
import { buildWidget, CHAT_SCRIPT_OUTPUT, LIVE_SCRIPT_OUTPUT, WIDGET_OUTPUT } from '../build-widget.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts'
import { WIDGET_LOCALES } from '../../server/protocol/widget-locales.ts'
import { WIDGET_TEXTS } from '../../server/widget-assets/widget-texts.ts'

/** What every page may load before the chat is opened, gzipped (test/widget/bundle.test.ts holds widget.js and widget-live.js to it). */
const WIDGET_BUDGET_BYTES = 20 * 1024
/** Issue 34's first-paint targets: widget.js gzipped, and the bubble's time as a ratio to the baseline's. */
const WIDGET_SCRIPT_TARGET_BYTES = 14 * 1024
const BUBBLE_TARGET_RATIO = { first: 1.3, repeat: 1.5 } as const
const verdict = (met: boolean) => (met ? 'MET' : 'NOT MET')

const root = join(import.meta.dir, '../..')
const RUNS = Number(process.env.BENCH_RUNS ?? 15)

// ---- a Parley with one chatbot and its web integration ----
await buildWidget()
const dataDir = mkdtempSync(join(tmpdir(), 'parley-bench-widget-'))
const seed = openDatabase(join(dataDir, 'parley.db'))
migrate(seed)
const app = createApp({ db: seed, config: loadConfig({ PARLEY_DATA_DIR: dataDir }), logger: createLogger('silent') })
const { workspaceId } = await app.services.workspaces.createKey({ name: 'bench' })
const bot = app.services.chatbots.create(workspaceId, { name: 'Bench bot' })
const widgetKey = (await app.services.integrations.web.create(workspaceId, bot.id, { name: 'Bench site' })).config.widget_key
await app.close()
closeDatabase(seed)

const parley = spawn([process.execPath, 'server/main.ts', 'serve'], {
  cwd: root,
  env: { ...process.env, PARLEY_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
  stdout: 'pipe',
  stderr: 'inherit',
})
const parleyUrl = await listeningUrl(parley.stdout)

// ---- the baseline: same size, same compression and caching, served by a plain Bun server ----
// The script as the console's snippet loads it (/widget.js?key=..., its configuration in front),
// asked for as a page of the bench's site asks: the baseline is a script of that size.
let baseline = { gzip: new Uint8Array(), etag: '""' }
const trivial = `(function(){var d=document.createElement('div');d.id='baseline';d.textContent='Need Help?';document.body.appendChild(d);var s=new WebSocket(BASELINE_SOCKET);s.onopen=function(){s.send('{"type":"hello","v":1}')};s.onmessage=function(){window.__marks.connected=performance.now();s.close()}})();`

const site = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request, server) {
    const { pathname } = new URL(request.url)
    if (pathname === '/socket') return server.upgrade(request, { data: undefined }) ? undefined : new Response('no', { status: 426 })
    if (pathname === '/baseline.js') {
      const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', etag: baseline.etag, 'content-encoding': 'gzip', vary: 'Accept-Encoding' }
      if (request.headers.get('if-none-match') === baseline.etag) return new Response(null, { status: 304, headers })
      return new Response(baseline.gzip, { headers })
    }
    return new Response(hostPage(), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
  },
  websocket: {
    message(socket, message) {
      socket.send(message)
    },
  },
})
const siteUrl = `http://127.0.0.1:${site.port}`
const widgetSrc = `${parleyUrl}/widget.js?key=${widgetKey}`
const widgetSource = await (await fetch(widgetSrc, { headers: { referer: `${siteUrl}/widget` } })).text()
if (!widgetSource.includes('parleyBoot')) throw new Error('/widget.js?key=... came without its configuration')
{
  // The widget's own text in a comment: the same bytes to download and a similar compression ratio, nothing to run.
  const padding = widgetSource.replaceAll('*/', '* /').slice(0, Math.max(0, widgetSource.length - trivial.length - 4))
  const baselineSource = `/*${padding}*/${trivial}`
  baseline = { gzip: Bun.gzipSync(new TextEncoder().encode(baselineSource), { level: 9 }), etag: `"${Bun.hash(baselineSource).toString(36)}"` }
}

/**
 * The page both measurements use. start() notes the time and inserts the script element;
 * a MutationObserver sees the widget's host (or the baseline div) arrive, and the next
 * animation frame counts as "shown". A wrapped WebSocket notes the first message received.
 */
function hostPage(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>bench</title></head><body><h1>A page</h1>
<script>
window.__marks = {}
var BASELINE_SOCKET = ${JSON.stringify(`ws://127.0.0.1:${site.port}/socket`)}
var Native = window.WebSocket
window.WebSocket = class extends Native {
  constructor(url, protocols) {
    super(url, protocols)
    this.addEventListener('message', function () { if (window.__marks.connected === undefined) window.__marks.connected = performance.now() }, { once: true })
  }
}
new MutationObserver(function (records, observer) {
  var host = document.querySelector('#parley-widget')
  var shown = (host && host.shadowRoot && host.shadowRoot.querySelector('.launcher')) || document.querySelector('#baseline')
  if (!shown) return
  observer.disconnect()
  requestAnimationFrame(function () { window.__marks.shown = performance.now() })
}).observe(document.body, { childList: true })
window.start = function (src, key) {
  window.__marks.start = performance.now()
  var script = document.createElement('script')
  script.src = src
  script.async = true
  if (key) script.dataset.widgetKey = key
  document.body.appendChild(script)
}
</script></body></html>`
}

interface Marks {
  shown: number
  connected: number
}

async function measure(page: Page, which: 'widget' | 'baseline'): Promise<Marks> {
  await page.goto(`${siteUrl}/${which}`)
  const [src, key] = which === 'widget' ? [widgetSrc, widgetKey] : [`${siteUrl}/baseline.js`, null]
  await page.evaluate(([src, key]) => (window as any).start(src, key), [src, key] as const)
  await page.waitForFunction(() => (window as any).__marks.shown !== undefined && (window as any).__marks.connected !== undefined, null, { timeout: 15_000 })
  const marks = await page.evaluate(() => (window as any).__marks as { start: number; shown: number; connected: number })
  return { shown: marks.shown - marks.start, connected: marks.connected - marks.start }
}

// ---- the runs ----
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS })
const results = { widget: { first: [] as Marks[], repeat: [] as Marks[] }, baseline: { first: [] as Marks[], repeat: [] as Marks[] } }
const gzipKb = (Bun.gzipSync(new TextEncoder().encode(widgetSource), { level: 9 }).length / 1024).toFixed(1)
console.log(`bench:widget  ${RUNS} runs in headless Chromium; widget.js ${(widgetSource.length / 1024).toFixed(1)} KB (${gzipKb} KB gzipped); baseline the same size`)
// What the open chat loads on its first open, not measured above (nothing loads it before).
const chatSource = await Bun.file(CHAT_SCRIPT_OUTPUT).bytes()
// What loads before the chat opens, per language: widget.js, widget-live.js (added once the
// bubble is drawn) and (for any language but English, which
// widget-live.js carries) the language's texts, each gzipped; the widget's budget is for their sum.
{
  const gzip = (text: string) => Bun.gzipSync(new TextEncoder().encode(text), { level: 9 }).length
  // The configuration comes inside the keyed script: no request of its own on a first visit.
  const script = gzip(widgetSource)
  const plain = gzip(await Bun.file(WIDGET_OUTPUT).text())
  const live = gzip(await Bun.file(LIVE_SCRIPT_OUTPUT).text())
  const sizes = WIDGET_LOCALES.map((tag) => [tag, script + live + (tag === 'en' ? 0 : gzip(JSON.stringify(WIDGET_TEXTS[tag])))] as const)
  const largest = Math.max(...sizes.map(([, bytes]) => bytes))
  console.log(`  widget-live.js ${(live / 1024).toFixed(1)} KB gzipped, added once the bubble is drawn`)
  console.log(`  before the chat opens (widget.js with its configuration + widget-live.js + the language's texts, gzipped; budget ${WIDGET_BUDGET_BYTES / 1024} KB): ${largest <= WIDGET_BUDGET_BYTES ? 'MET' : 'NOT MET'}`)
  console.log(`    ${sizes.map(([tag, bytes]) => `${tag} ${(bytes / 1024).toFixed(1)} KB`).join(', ')}`)
  console.log(`  widget.js ${(script / 1024).toFixed(1)} KB gzipped with its configuration, ${(plain / 1024).toFixed(1)} KB without (target <= ${WIDGET_SCRIPT_TARGET_BYTES / 1024} KB): ${verdict(script <= WIDGET_SCRIPT_TARGET_BYTES)}`)
}
console.log(`  loaded on the first open: widget-chat.js ${(chatSource.length / 1024).toFixed(1)} KB (${(Bun.gzipSync(chatSource, { level: 9 }).length / 1024).toFixed(1)} KB gzipped)`)

for (let run = 0; run <= RUNS; run++) {
  // Alternate which goes first, so neither always gets the warmer machine.
  const order: ('widget' | 'baseline')[] = run % 2 === 0 ? ['widget', 'baseline'] : ['baseline', 'widget']
  for (const which of order) {
    const context = await browser.newContext()
    const page = await context.newPage()
    const first = await measure(page, which)
    const repeat = await measure(page, which)
    await context.close()
    // Run 0 warms up Chromium, the servers and the JIT: not counted.
    if (run === 0) continue
    results[which].first.push(first)
    results[which].repeat.push(repeat)
  }
}
await browser.close()

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}
const ms = (value: number) => `${value.toFixed(1).padStart(6)} ms`
for (const visit of ['first', 'repeat'] as const) {
  const w = { shown: median(results.widget[visit].map((m) => m.shown)), connected: median(results.widget[visit].map((m) => m.connected)) }
  const b = { shown: median(results.baseline[visit].map((m) => m.shown)), connected: median(results.baseline[visit].map((m) => m.connected)) }
  console.log(`${visit === 'first' ? 'first visit (nothing cached)' : 'repeat visit (script cached)'}, medians:`)
  console.log(`  script inserted -> bubble shown:      widget ${ms(w.shown)}   baseline div    ${ms(b.shown)}   ratio ${(w.shown / b.shown).toFixed(3)} (target <= ${BUBBLE_TARGET_RATIO[visit]}) ${verdict(w.shown / b.shown <= BUBBLE_TARGET_RATIO[visit])}`)
  console.log(`  script inserted -> socket connected:  widget ${ms(w.connected)}   baseline socket ${ms(b.connected)}   ratio ${(w.connected / b.connected).toFixed(2)}`)
}

site.stop(true)
parley.kill('SIGTERM')
await parley.exited
rmSync(dataDir, { recursive: true, force: true })

async function listeningUrl(stdout: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stdout.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`parley did not start: ${seen}`)
    seen += decoder.decode(value, { stream: true })
    const match = /"msg":"listening".*?:(\d+)"/.exec(seen)
    if (match) {
      void (async () => {
        while (!(await reader.read()).done);
      })()
      return `http://127.0.0.1:${match[1]}`
    }
  }
}
