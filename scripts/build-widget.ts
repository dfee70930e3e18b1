#!/usr/bin/env bun
/**
 * Builds the embeddable widget into three minified classic scripts and a stylesheet, in
 * dist/widget/:
 * - widget.js, what every page loads and runs first: the page's API and the bubble, drawn with
 *   plain DOM from the stored or fetched configuration (an IIFE, no Solid; the launcher's
 *   stylesheet inlined);
 * - widget-live.js, added by widget.js once the bubble is on screen: the session and its
 *   socket, the language, the preview of a new message (an IIFE with Solid inside);
 * - widget-chat.js, what only an open chat needs (the window, the log, the composer), loaded by
 *   widget-live.js when the chat first opens. It takes Solid from widget-live.js (one copy, one
 *   reactive system): it is built as an ES module with Solid left external, its imports become
 *   reads from the runtime widget-live.js hands it, and widget-live.js is built with exactly
 *   those exports (the virtual module `virtual:parley-chat-runtime`);
 * - widget-chat.css, the open chat's stylesheet, loaded at the same time.
 * Each later script is asked for with `?v=` and the hash of its bytes.
 */
import { rmSync } from 'node:fs'
import type { Plugin } from 'vite'
import { buildSolidBundle } from './build-solid-bundle.ts'

const root = new URL('..', import.meta.url).pathname
export const WIDGET_OUTPUT = `${root}dist/widget/widget.js`
/** The rest of the widget but the open chat, added by widget.js once the bubble is drawn. */
export const LIVE_SCRIPT_OUTPUT = `${root}dist/widget/widget-live.js`
/** The open chat's script, fetched by the widget when the chat first opens. */
export const CHAT_SCRIPT_OUTPUT = `${root}dist/widget/widget-chat.js`
/** The open chat's stylesheet, fetched by the widget when the chat first opens. */
export const CHAT_STYLESHEET_OUTPUT = `${root}dist/widget/widget-chat.css`

/** The modules widget-chat.js takes from widget-live.js instead of carrying its own copy. */
const SHARED_MODULES = ['solid-js', 'solid-js/web']
const RUNTIME_MODULE = 'virtual:parley-chat-runtime'
/** The chat script's one parameter: a name its minified code cannot also declare. */
const RUNTIME_PARAMETER = '$parleyRuntime$'

export interface WidgetBuild {
  /** widget.js, what every page loads first. */
  bytes: number
  gzipped: number
  /** widget-live.js, what loads once the bubble is drawn. */
  liveBytes: number
  liveGzipped: number
  /** widget-chat.js, loaded when the chat first opens. */
  chatBytes: number
  chatGzipped: number
}

export async function buildWidget(): Promise<WidgetBuild> {
  const chat = await buildChatScript()
  await buildSolidBundle({
    folder: 'widget',
    // No delegated events: they would touch window at load (SSR) and hang listeners on the host's document.
    solid: { delegateEvents: false },
    lib: { entry: `${root}widget/src/live.ts`, formats: ['iife'], name: 'ParleyWidgetLive', fileName: () => 'widget-live.js' },
    plugins: [chatRuntimeModule(chat.imports)],
    define: { __PARLEY_CHAT_VERSION__: JSON.stringify(chat.version) },
  })
  // ASCII only: a host page that serves or includes the script with another charset must not garble its text.
  const live = asciiOnly(await Bun.file(LIVE_SCRIPT_OUTPUT).text())
  await Bun.write(LIVE_SCRIPT_OUTPUT, live)
  await buildSolidBundle({
    folder: 'widget',
    lib: { entry: `${root}widget/src/embed.ts`, formats: ['iife'], name: 'ParleyWidgetBundle', fileName: () => 'widget.js' },
    define: { __PARLEY_LIVE_VERSION__: JSON.stringify(scriptVersion(live)) },
  })
  const source = asciiOnly(await Bun.file(WIDGET_OUTPUT).text())
  if (/solid-track|\$\$click/.test(source)) throw new Error('widget.js must draw the bubble without Solid: a Solid import reached it')
  await Bun.write(WIDGET_OUTPUT, source)
  await buildChatStylesheet()
  const bytes = new TextEncoder().encode(source)
  const liveBytes = new TextEncoder().encode(live)
  const chatBytes = new TextEncoder().encode(chat.script)
  return {
    bytes: bytes.length,
    gzipped: Bun.gzipSync(bytes, { level: 9 }).length,
    liveBytes: liveBytes.length,
    liveGzipped: Bun.gzipSync(liveBytes, { level: 9 }).length,
    chatBytes: chatBytes.length,
    chatGzipped: Bun.gzipSync(chatBytes, { level: 9 }).length,
  }
}

/**
 * widget/src/chat.tsx as an ES module with Solid external, rewritten into a classic script:
 * `(function($parleyRuntime$){var {a:b}=$parleyRuntime$["solid-js/web"];...;$parleyRuntime$.loaded({ChatWindow:x})})(document.currentScript.parleyRuntime)`.
 * Answers the names it imports from each shared module, and a hash of the script.
 */
async function buildChatScript(): Promise<{ imports: Map<string, Set<string>>; version: string; script: string }> {
  const moduleFile = `${root}dist/widget/widget-chat.mjs`
  await buildSolidBundle({
    folder: 'widget',
    solid: { delegateEvents: false },
    lib: { entry: `${root}widget/src/chat.tsx`, formats: ['es'], fileName: () => 'widget-chat.mjs' },
    external: SHARED_MODULES,
  })
  let code = await Bun.file(moduleFile).text()
  rmSync(moduleFile)
  const imports = new Map<string, Set<string>>()
  code = code.replace(/\bimport\s*\{([^}]*)\}\s*from\s*["']([^"']+)["'];?/g, (_, names: string, from: string) => {
    if (!SHARED_MODULES.includes(from)) throw new Error(`widget-chat.js imports ${from}: only ${SHARED_MODULES.join(', ')} may be shared with widget.js`)
    const bindings = specifiers(names)
    const wanted = imports.get(from) ?? new Set<string>()
    for (const [imported] of bindings) wanted.add(imported as string)
    imports.set(from, wanted)
    return `var {${bindings.map(([imported, local]) => (local ? `${imported}:${local}` : imported)).join(',')}}=${RUNTIME_PARAMETER}[${JSON.stringify(from)}];`
  })
  let exported = false
  code = code.replace(/\bexport\s*\{([^}]*)\};?\s*$/, (_, names: string) => {
    exported = true
    const pairs = specifiers(names)
    return `${RUNTIME_PARAMETER}.loaded({${pairs.map(([local, as]) => `${as ?? local}:${local}`).join(',')}});`
  })
  if (!exported || /\bimport\s*[\w{*(]|\bexport\b/.test(code)) throw new Error('widget-chat.js: unexpected module syntax left after rewriting its imports and exports')
  // Vite keeps an ES library's white space (for its pure annotations); this script is not a library.
  const minified = new Bun.Transpiler({ loader: 'js', minifyWhitespace: true }).transformSync(`(function(${RUNTIME_PARAMETER}){${code}})(document.currentScript.parleyRuntime);`)
  const script = asciiOnly(minified)
  await Bun.write(CHAT_SCRIPT_OUTPUT, script)
  return { imports, version: scriptVersion(script), script }
}

/** The `?v=` a script is asked for with: the hash of its bytes (the server answers such a request as immutable). */
export function scriptVersion(script: string): string {
  return Bun.hash(script).toString(36)
}

/** `a, b as c` (the inside of an import's or export's braces) as [['a'], ['b', 'c']]. */
function specifiers(names: string): string[][] {
  return names.split(',').map((name) => name.trim()).filter(Boolean).map((name) => name.split(/\s+as\s+/))
}

/** `virtual:parley-chat-runtime` for widget-live.js: the exports widget-chat.js asked for, by module. */
function chatRuntimeModule(imports: Map<string, Set<string>>): Plugin {
  const resolved = `\0${RUNTIME_MODULE}`
  return {
    name: 'parley-chat-runtime',
    resolveId: (id) => (id === RUNTIME_MODULE ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined
      const modules = [...imports]
      const lines = modules.map(([from, names], index) => `import { ${[...names].map((name) => `${name} as m${index}_${name}`).join(', ')} } from ${JSON.stringify(from)}`)
      const entries = modules.map(([from, names], index) => `${JSON.stringify(from)}: { ${[...names].map((name) => `${name}: m${index}_${name}`).join(', ')} }`)
      return `${lines.join('\n')}\nexport const chatRuntime = { ${entries.join(', ')} }\n`
    },
  }
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
  await Bun.write(CHAT_STYLESHEET_OUTPUT, cssAsciiOnly(css))
}

/** Non-ASCII characters only occur in strings, templates, regexes and comments, where \\uXXXX means the same. */
function asciiOnly(source: string): string {
  return source.replace(/[^\x00-\x7e]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * The same for CSS, whose escape is a backslash, the hex code and a space that ends it: the
 * script's \\uXXXX in a stylesheet is the letter u and four digits (the draft's caret showed "u258d").
 */
function cssAsciiOnly(source: string): string {
  return source.replace(/[^\x00-\x7e]/gu, (char) => `\\${(char.codePointAt(0) as number).toString(16)} `)
}

if (import.meta.main) {
  const started = performance.now()
  const { bytes, gzipped, liveBytes, liveGzipped, chatBytes, chatGzipped } = await buildWidget()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  console.log(
    `dist/widget/widget.js built in ${Math.round(performance.now() - started)} ms (${kb(bytes)}, ${kb(gzipped)} gzipped; widget-live.js ${kb(liveBytes)}, ${kb(liveGzipped)} gzipped; widget-chat.js ${kb(chatBytes)}, ${kb(chatGzipped)} gzipped)`,
  )
}
