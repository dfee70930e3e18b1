import { describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { importCycles, importGraph } from './import-graph.ts'

const serverRoot = join(import.meta.dir, '..', '..', 'server')

/** A throwaway tree of source files, for checking the walker itself. */
function tree(files: Record<string, string>): { root: string; [Symbol.dispose](): void } {
  const root = mkdtempSync(join(tmpdir(), 'parley-imports-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return { root, [Symbol.dispose]: () => rmSync(root, { recursive: true, force: true }) }
}

const cyclesIn = (root: string) => importCycles(importGraph(root), root)

describe('import cycles', () => {
  test('no module under server/ imports itself back through others, types included', () => {
    const graph = importGraph(serverRoot)
    // The walker must have read the tree, or the check below proves nothing.
    expect(graph.size).toBeGreaterThan(100)
    expect([...graph.values()].flat().length).toBeGreaterThan(graph.size)
    const described = importCycles(graph, serverRoot).map(({ files, example }) => `${example.join(' -> ')} (in a group of ${files.join(', ')})`)
    expect(described).toEqual([])
  })

  test('the walker finds a cycle through an import, an export-from and a type-only import', () => {
    using files = tree({
      'a.ts': "import {\n  b,\n} from './sub/b.ts'\nexport const a = b\n",
      'sub/b.ts': "export { c as b } from '../c'\n",
      'c.ts': "import type { A } from './a.ts'\nexport const c = 1\nexport type C = A\n",
      'd.ts': "import { a } from './a.ts'\nimport { Elysia } from 'elysia'\nexport const d = a\n",
    })
    expect(cyclesIn(files.root)).toEqual([{ files: ['a.ts', 'c.ts', 'sub/b.ts'], example: ['a.ts', 'sub/b.ts', 'c.ts', 'a.ts'] }])
  })

  test('the walker finds a module that imports itself, and none in a tree without cycles', () => {
    using selfish = tree({ 'a.ts': "import './a.ts'\n" })
    expect(cyclesIn(selfish.root)).toEqual([{ files: ['a.ts'], example: ['a.ts', 'a.ts'] }])
    using acyclic = tree({ 'a.ts': "import { b } from './b.ts'\n", 'b.ts': "import { c } from './c.ts'\n", 'c.ts': 'export const c = 1\n' })
    expect(cyclesIn(acyclic.root)).toEqual([])
  })
})
