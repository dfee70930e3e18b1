import { describe, expect, test } from 'bun:test'
import { join, relative, sep } from 'node:path'
import { importGraph } from './import-graph.ts'

const serverRoot = join(import.meta.dir, '..', '..', 'server')

/**
 * Pairs of domain folders that still import each other (issue 26, point 3): the last knots
 * (engine/flows, http/people, http/workspaces, protocol/support) were untied on 2026-11-28 and
 * the list is empty; it stays so. A new pair fails the test. The composition root's files (server/*.ts: app, config, main, version,
 * listen, stores) are left out: they are above every folder by design.
 */
const STILL_TWO_WAY: string[] = []

/** The folder a module lives in, its first segment below server/; null for the composition root's files. */
function folderOf(file: string): string | null {
  const parts = relative(serverRoot, file).split(sep)
  return parts.length > 1 ? (parts[0] as string) : null
}

/** "a <-> b" for every two folders each importing the other (types included), with one example edge each way. */
function twoWayFolders(graph: Map<string, { to: string }[]>): Map<string, string[]> {
  const edges = new Map<string, string>()
  for (const [from, imports] of graph) {
    for (const { to } of imports) {
      const a = folderOf(from)
      const b = folderOf(to)
      if (a && b && a !== b && !edges.has(`${a}>${b}`)) edges.set(`${a}>${b}`, `${relative(serverRoot, from)} -> ${relative(serverRoot, to)}`)
    }
  }
  const pairs = new Map<string, string[]>()
  for (const [key, example] of edges) {
    const [a, b] = key.split('>') as [string, string]
    const back = edges.get(`${b}>${a}`)
    if (back && a < b) pairs.set(`${a} <-> ${b}`, [example, back])
  }
  return pairs
}

describe('domain folders', () => {
  test('no two folders under server/ import each other, but for the knots still listed', () => {
    const graph = importGraph(serverRoot)
    expect(graph.size).toBeGreaterThan(100)
    const pairs = twoWayFolders(graph)
    const found = [...pairs.keys()].sort()
    const added = found.filter((pair) => !STILL_TWO_WAY.includes(pair)).map((pair) => `${pair}: ${pairs.get(pair)?.join(' and ')}`)
    const untied = STILL_TWO_WAY.filter((pair) => !pairs.has(pair))
    expect({ added, untied }).toEqual({ added: [], untied: [] })
  })

  test('a pair is found from one import each way, types included; one way is no pair', () => {
    const root = serverRoot
    const graph = new Map([
      [join(root, 'a/x.ts'), [{ to: join(root, 'b/y.ts') }]],
      [join(root, 'b/y.ts'), [{ to: join(root, 'c/z.ts') }]],
      [join(root, 'b/w.ts'), [{ to: join(root, 'a/v.ts') }]],
      [join(root, 'app.ts'), [{ to: join(root, 'a/x.ts') }]],
      [join(root, 'a/v.ts'), [{ to: join(root, 'app.ts') }]],
    ])
    expect([...twoWayFolders(graph)]).toEqual([['a <-> b', ['a/x.ts -> b/y.ts', 'b/w.ts -> a/v.ts']]])
  })
})
