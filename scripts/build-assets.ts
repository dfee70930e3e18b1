#!/usr/bin/env bun
/**
 * What `npm start` (and `npm test`) build first: the widget and the app, each only when what
 * it is built from changed since its last build here. A stamp in dist/.stamps/ holds the hash
 * of those inputs (every file of the source folders the bundle imports from, the build
 * scripts, package.json and the lockfile); a start with the same hash and the outputs present
 * builds nothing (8 s saved per start). `npm run build` always builds everything.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'

export interface Asset {
  name: string
  /** Folders and files (relative to the root) whose content the build depends on. */
  inputs: string[]
  /** Files the build writes; a missing one means build again. */
  outputs: string[]
  build: () => Promise<unknown>
}

const root = join(import.meta.dir, '..')
const COMMON = ['scripts/build-solid-bundle.ts', 'scripts/build-assets.ts', 'package.json', 'package-lock.json']

/** The widget and the app, with what each is built from (the app imports widget/src/links.ts and protocol types). */
export const ASSETS: Asset[] = [
  {
    name: 'widget',
    inputs: ['widget/src', 'server/protocol', 'scripts/build-widget.ts', ...COMMON],
    outputs: ['dist/widget/widget.js', 'dist/widget/widget-live.js', 'dist/widget/widget-chat.js', 'dist/widget/widget-chat.css'],
    build: async () => (await import('./build-widget.ts')).buildWidget(),
  },
  {
    name: 'app',
    inputs: ['app/src', 'widget/src', 'server/protocol', 'scripts/build-app.ts', ...COMMON],
    outputs: ['dist/app/app.js', 'dist/app/app.css', 'dist/app/chunks.js'],
    build: async () => (await import('./build-app.ts')).buildApp(),
  },
]

function filesUnder(base: string, path: string): string[] {
  const full = join(base, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [path]
  return readdirSync(full, { withFileTypes: true })
    .flatMap((entry) => filesUnder(base, join(path, entry.name)))
}

/** The hash of every input file's path and bytes, in a fixed order. */
export function inputsHash(base: string, inputs: string[]): string {
  const hasher = new Bun.CryptoHasher('sha256')
  for (const file of [...new Set(inputs.flatMap((input) => filesUnder(base, input)))].sort()) {
    hasher.update(`${relative(base, join(base, file))}\0`)
    hasher.update(readFileSync(join(base, file)))
    hasher.update('\0')
  }
  return hasher.digest('hex')
}

const stampFile = (base: string, name: string) => join(base, 'dist/.stamps', name)

/** Whether the asset's outputs are there and were built from inputs with this same hash. */
export function upToDate(base: string, asset: Asset, hash = inputsHash(base, asset.inputs)): boolean {
  if (!asset.outputs.every((output) => existsSync(join(base, output)))) return false
  return existsSync(stampFile(base, asset.name)) && readFileSync(stampFile(base, asset.name), 'utf8') === hash
}

export function stamp(base: string, asset: Asset, hash: string): void {
  mkdirSync(join(base, 'dist/.stamps'), { recursive: true })
  writeFileSync(stampFile(base, asset.name), hash)
}

if (import.meta.main) {
  for (const asset of ASSETS) {
    const hash = inputsHash(root, asset.inputs)
    if (upToDate(root, asset, hash)) {
      console.log(`${asset.name}: up to date (nothing it is built from changed)`)
      continue
    }
    const started = performance.now()
    await asset.build()
    stamp(root, asset, hash)
    console.log(`${asset.name}: built in ${Math.round(performance.now() - started)} ms`)
  }
}
