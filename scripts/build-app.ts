#!/usr/bin/env bun
/**
 * Builds the app served at /app (the desk and the console) into minified files: dist/app/app.js
 * (an ES module: Solid, the router and the app), dist/app/app.css and the lazily loaded chunks. The
 * server embeds them, names them by their content hash and writes the HTML page itself, so
 * no inline script or style is needed and the page's CSP stays strict.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { build, Rollup } from 'vite'
import { buildSolidBundle } from './build-solid-bundle.ts'

const root = new URL('..', import.meta.url).pathname
export const APP_SCRIPT = `${root}dist/app/app.js`
export const APP_STYLES = `${root}dist/app/app.css`
/** Lazily loaded screens (the console's), each in its own file: dist/app/chunks/{name}-{hash}.js. */
export const APP_CHUNKS = `${root}dist/app/chunks`
/** A module that names every chunk file for the binary to embed (server/app-assets/routes.ts). */
export const APP_CHUNK_INDEX = `${root}dist/app/chunks.js`

/**
 * What the app's first load needs goes into one shared chunk (`core`): the shell, the desk,
 * Solid and the router. The entry is then a one-line import of it, so lazily loaded chunks
 * import `core` and never the entry, whose served name the server picks by its hash. What
 * only a lazy screen imports (the console, CodeMirror, dagre) stays out of it.
 */
type ModuleInfo = (id: string) => { isEntry: boolean; importers: readonly string[] } | null

function coreChunk(id: string, { getModuleInfo }: { getModuleInfo: ModuleInfo }): string | undefined {
  return loadedFirst(id, getModuleInfo, new Map()) ? 'core' : undefined
}

/** Whether the entry imports the module statically, directly or through others (dynamic imports do not count). */
function loadedFirst(id: string, info: ModuleInfo, seen: Map<string, boolean>): boolean {
  const known = seen.get(id)
  if (known !== undefined) return known
  seen.set(id, false)
  const module = info(id)
  const first = module !== null && (module.isEntry || module.importers.some((importer) => loadedFirst(importer, info, seen)))
  seen.set(id, first)
  return first
}

export async function buildApp(): Promise<{ bytes: number; gzipped: number }> {
  const result = await buildSolidBundle({
    folder: 'app',
    lib: { entry: `${root}app/src/main.tsx`, formats: ['es'], fileName: () => 'app.js', cssFileName: 'app' },
    output: { chunkFileNames: 'chunks/[name]-[hash].js', manualChunks: coreChunk } as Rollup.OutputOptions,
  })
  writeChunkIndex(result)
  // The chunk folder now holds only this build's chunks, so the app's files are exactly these.
  const files = appFileSizes()
  return { bytes: files.reduce((sum, file) => sum + file.bytes, 0), gzipped: files.reduce((sum, file) => sum + file.gzipped, 0) }
}

/**
 * Names this build's chunks in dist/app/chunks.js (each imported `with { type: 'file' }`, so
 * the compiled binary embeds it) and removes chunks of earlier builds.
 */
function writeChunkIndex(result: Awaited<ReturnType<typeof build>>): void {
  mkdirSync(APP_CHUNKS, { recursive: true })
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[]
  const names = outputs.flatMap((output) => output.output.filter((file) => file.type === 'chunk' && file.fileName.startsWith('chunks/')).map((file) => file.fileName.slice('chunks/'.length)))
  for (const old of readdirSync(APP_CHUNKS)) if (!names.includes(old)) rmSync(`${APP_CHUNKS}/${old}`, { force: true })
  const lines = names.map((name, index) => `import chunk${index} from './chunks/${name}' with { type: 'file' }`)
  const entries = names.map((name, index) => `  ${JSON.stringify(name)}: chunk${index},`)
  writeFileSync(APP_CHUNK_INDEX, `// Written by scripts/build-app.ts: this build's lazily loaded chunks, by file name.\n${lines.join('\n')}\n\nexport default {\n${entries.join('\n')}\n}\n`)
}

/** Each file of the app as a browser downloads it, gzipped on its own: what each route costs. */
export function appFileSizes(): { file: string; bytes: number; gzipped: number }[] {
  mkdirSync(APP_CHUNKS, { recursive: true })
  const files = ['app.js', 'app.css', ...readdirSync(APP_CHUNKS).map((name) => `chunks/${name}`)]
  return files.map((file) => {
    const bytes = readFileSync(`${root}dist/app/${file}`)
    return { file, bytes: bytes.length, gzipped: Bun.gzipSync(bytes, { level: 9 }).length }
  })
}

if (import.meta.main) {
  const started = performance.now()
  const { bytes, gzipped } = await buildApp()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  console.log(`dist/app/app.js + app.css built in ${Math.round(performance.now() - started)} ms (${kb(bytes)}, ${kb(gzipped)} gzipped)`)
}
