/**
 * The Vite build both browser bundles share (the widget, scripts/build-widget.ts, and the app,
 * scripts/build-app.ts): Solid compiled for the browser in its production build, minified for
 * es2020, written over the previous files in dist/{folder}.
 */
import { build, type LibraryOptions, type Plugin, type Rollup } from 'vite'
import solid, { type Options as SolidPluginOptions } from 'vite-plugin-solid'

const root = new URL('..', import.meta.url).pathname

export interface SolidBundle {
  /** The source folder (its root for Vite) and the name of its output folder under dist/. */
  folder: string
  lib: LibraryOptions
  /** Options of Solid's compiler (dom-expressions), such as event delegation. */
  solid?: SolidPluginOptions['solid']
  output?: Rollup.OutputOptions
  /** Modules left as imports (the widget's chat script takes Solid from widget.js). */
  external?: string[]
  plugins?: Plugin[]
  /** More compile-time constants (`process.env.NODE_ENV` is always production). */
  define?: Record<string, string>
}

export async function buildSolidBundle({ folder, lib, solid: compiler, output, external, plugins = [], define = {} }: SolidBundle): ReturnType<typeof build> {
  // Vite picks Solid's development build unless NODE_ENV says production (bun test sets "test").
  process.env.NODE_ENV = 'production'
  return build({
    configFile: false,
    root: `${root}${folder}`,
    mode: 'production',
    logLevel: 'warn',
    publicDir: false,
    plugins: [solid({ ssr: false, dev: false, hot: false, ...(compiler ? { solid: compiler } : {}) }), ...plugins],
    define: { 'process.env.NODE_ENV': '"production"', ...define },
    build: {
      outDir: `${root}dist/${folder}`,
      // The server may be reading the previous files; overwrite them rather than empty the folder.
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      cssMinify: true,
      sourcemap: false,
      reportCompressedSize: false,
      ...(output || external ? { rollupOptions: { ...(output ? { output } : {}), ...(external ? { external } : {}) } } : {}),
      lib,
    },
  })
}
