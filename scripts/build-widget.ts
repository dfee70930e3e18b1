#!/usr/bin/env bun
/**
 * Builds the embeddable widget into ONE self-contained, minified file: dist/widget/widget.js
 * (an IIFE; Solid and the launcher's stylesheet inlined), and beside it widget-chat.css, the open
 * chat's stylesheet, which the widget loads from the same server when the chat first opens.
 */
import { buildSolidBundle } from './build-solid-bundle.ts'

const root = new URL('..', import.meta.url).pathname
export const WIDGET_OUTPUT = `${root}dist/widget/widget.js`
/** The open chat's stylesheet, fetched by the widget when the chat first opens. */
export const CHAT_STYLESHEET_OUTPUT = `${root}dist/widget/widget-chat.css`

export async function buildWidget(): Promise<{ bytes: number; gzipped: number }> {
  await buildSolidBundle({
    folder: 'widget',
    // No delegated events: they would touch window at load (SSR) and hang listeners on the host's document.
    solid: { delegateEvents: false },
    lib: { entry: `${root}widget/src/embed.ts`, formats: ['iife'], name: 'ParleyWidgetBundle', fileName: () => 'widget.js' },
  })
  // ASCII only: a host page that serves or includes the script with another charset must not garble its text.
  const source = await Bun.file(WIDGET_OUTPUT).text()
  await Bun.write(WIDGET_OUTPUT, asciiOnly(source))
  await buildChatStylesheet()
  const bytes = await Bun.file(WIDGET_OUTPUT).bytes()
  return { bytes: bytes.length, gzipped: Bun.gzipSync(bytes, { level: 9 }).length }
}

/**
 * chat.css into dist/widget/widget-chat.css with comments and spaces around braces and
 * semicolons removed, ASCII only like the script. Not Bun's CSS minifier: it rewrites large
 * numbers lossily (z-index 2147483000 became 2147480000).
 */
async function buildChatStylesheet(): Promise<void> {
  const css = (await Bun.file(`${root}widget/src/chat.css`).text())
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\s+/g, ' ')
    .replace(/\s*([{};])\s*/g, '$1')
    .trim()
  await Bun.write(CHAT_STYLESHEET_OUTPUT, asciiOnly(css))
}

/** Non-ASCII characters only occur in strings, templates, regexes and comments, where \\uXXXX means the same. */
function asciiOnly(source: string): string {
  return source.replace(/[^\x00-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

if (import.meta.main) {
  const started = performance.now()
  const { bytes, gzipped } = await buildWidget()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  console.log(`dist/widget/widget.js built in ${Math.round(performance.now() - started)} ms (${kb(bytes)}, ${kb(gzipped)} gzipped)`)
}
