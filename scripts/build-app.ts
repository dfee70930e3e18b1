#!/usr/bin/env bun
/**
 * Builds the desk (and later the console) app served at /app into two minified files,
 * dist/app/app.js (an ES module: Solid, the router and the app) and dist/app/app.css. The
 * server embeds both, names them by their content hash and writes the HTML page itself, so
 * no inline script or style is needed and the page's CSP stays strict.
 */
import { build } from 'vite'
import solid from 'vite-plugin-solid'

const root = new URL('..', import.meta.url).pathname
export const APP_SCRIPT = `${root}dist/app/app.js`
export const APP_STYLES = `${root}dist/app/app.css`

export async function buildApp(): Promise<{ bytes: number; gzipped: number }> {
  // Vite picks Solid's development build unless NODE_ENV says production (bun test sets "test").
  process.env.NODE_ENV = 'production'
  await build({
    configFile: false,
    root: `${root}app`,
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    plugins: [solid({ ssr: false, dev: false, hot: false })],
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: `${root}dist/app`,
      // The server may be reading the previous files; overwrite them rather than empty the folder.
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      cssMinify: true,
      sourcemap: false,
      reportCompressedSize: false,
      lib: {
        entry: `${root}app/src/main.tsx`,
        formats: ['es'],
        fileName: () => 'app.js',
        cssFileName: 'app',
      },
    },
  })
  const files = [await Bun.file(APP_SCRIPT).arrayBuffer(), await Bun.file(APP_STYLES).arrayBuffer()]
  return {
    bytes: files.reduce((sum, file) => sum + file.byteLength, 0),
    // What a browser downloads: each file gzipped on its own.
    gzipped: files.reduce((sum, file) => sum + Bun.gzipSync(file, { level: 9 }).length, 0),
  }
}

if (import.meta.main) {
  const started = performance.now()
  const { bytes, gzipped } = await buildApp()
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
  console.log(`dist/app/app.js + app.css built in ${Math.round(performance.now() - started)} ms (${kb(bytes)}, ${kb(gzipped)} gzipped)`)
}
