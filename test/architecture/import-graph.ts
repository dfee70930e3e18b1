import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** One relative import of a module: where it points, and whether only types cross it. */
export interface ImportEdge {
  to: string
  typeOnly: boolean
}

// `import … from '…'`, `export … from '…'` and the bare `import '…'`, across line breaks;
// `import type` and `export type` are noted, since they vanish when the code runs.
const STATEMENT = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"]+)['"]/gm

/** Every .ts file below `root`, as absolute paths. */
export function typeScriptFiles(root: string): string[] {
  const found: string[] = []
  for (const name of readdirSync(root)) {
    const path = join(root, name)
    if (statSync(path).isDirectory()) found.push(...typeScriptFiles(path))
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) found.push(path)
  }
  return found.sort()
}

/** The relative imports of one source text, resolved against its file; packages are left out. */
export function importsOf(file: string, source: string): ImportEdge[] {
  const edges: ImportEdge[] = []
  for (const match of source.matchAll(STATEMENT)) {
    const specifier = match[3] as string
    if (!specifier.startsWith('.')) continue
    const target = resolve(dirname(file), specifier)
    const to = [target, `${target}.ts`, join(target, 'index.ts')].find((path) => path.endsWith('.ts') && existsSync(path))
    if (to) edges.push({ to, typeOnly: match[2] !== undefined })
  }
  return edges
}

/** The import graph of the .ts files below `root`: file -> the files it imports. */
export function importGraph(root: string): Map<string, ImportEdge[]> {
  const graph = new Map<string, ImportEdge[]>()
  for (const file of typeScriptFiles(root)) graph.set(file, importsOf(file, readFileSync(file, 'utf8')))
  return graph
}

/** Files that import each other, directly or through others, and one cycle among them. */
export interface ImportCycle {
  files: string[]
  example: string[]
}

/**
 * The cycles of the graph, one per group of files that reach each other (Tarjan's strongly
 * connected components): the group's files and one path through them that starts and ends
 * at the same file, named relative to `base`.
 */
export function importCycles(graph: Map<string, ImportEdge[]>, base: string): ImportCycle[] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const groups: string[][] = []
  let counter = 0

  const visit = (file: string): void => {
    index.set(file, counter)
    low.set(file, counter)
    counter++
    stack.push(file)
    onStack.add(file)
    for (const { to } of graph.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(file, Math.min(low.get(file) as number, low.get(to) as number))
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file) as number, index.get(to) as number))
    }
    if (low.get(file) !== index.get(file)) return
    const group: string[] = []
    let member: string
    do {
      member = stack.pop() as string
      onStack.delete(member)
      group.push(member)
    } while (member !== file)
    const selfImport = graph.get(file)?.some(({ to }) => to === file)
    if (group.length > 1 || selfImport) groups.push(group)
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)

  const name = (file: string) => relative(base, file)
  return groups.map((group) => ({ files: group.map(name).sort(), example: cycleThrough(graph, new Set(group)).map(name) }))
}

/** One concrete cycle inside a group: a shortest way from its first file back to itself. */
function cycleThrough(graph: Map<string, ImportEdge[]>, group: Set<string>): string[] {
  const start = [...group].sort()[0] as string
  const cameFrom = new Map<string, string>()
  const queue = [start]
  while (queue.length > 0) {
    const file = queue.shift() as string
    for (const { to } of graph.get(file) ?? []) {
      if (!group.has(to)) continue
      if (to === start) {
        const path = [start]
        for (let step: string | undefined = file; step !== undefined && step !== start; step = cameFrom.get(step)) path.splice(1, 0, step)
        return [...path, start]
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, file)
        queue.push(to)
      }
    }
  }
  return [start, start]
}
