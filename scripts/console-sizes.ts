#!/usr/bin/env bun
/**
 * What each console route downloads, gzipped: the first load (app.js, its `core` chunk and
 * app.css) plus the chunks the route's screen imports, followed through their static imports.
 * Run after `bun scripts/build-app.ts`. The flow builder and CodeMirror must show only under the
 * flow editor, each loaded when first shown (the canvas, the JSON tab).
 */
import { readdirSync, readFileSync } from 'node:fs'

const dir = new URL('../dist/app/', import.meta.url).pathname
const gz = (file: string) => Bun.gzipSync(readFileSync(`${dir}${file}`), { level: 9 }).length
const chunks = readdirSync(`${dir}chunks`)
/** Static imports only (`import("...")` is a dynamic one: loaded when used), as paths under dist/app/. */
const importsOf = (file: string): string[] => {
  const base = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : ''
  return [...readFileSync(`${dir}${file}`, 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => `${base}${m[1]}`)
}

function closure(start: string[]): Set<string> {
  const seen = new Set<string>()
  const queue = [...start]
  while (queue.length > 0) {
    const file = queue.shift() as string
    if (seen.has(file)) continue
    seen.add(file)
    queue.push(...importsOf(file))
  }
  return seen
}

const first = closure(['app.js'])
const firstBytes = [...first].reduce((sum, file) => sum + gz(file), 0) + gz('app.css')
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`
console.log(`first load (desk and console shell): ${kb(firstBytes)} gzipped (${[...first].join(', ')}, app.css)`)
const screens: Record<string, string> = {
  '/app/console': 'ChatbotsScreen',
  '/app/console/bots/:id': 'OverviewScreen',
  '/app/console/bots/:id/widget': 'WidgetScreen',
  '/app/console/bots/:id/flows': 'FlowsScreen',
  '/app/console/bots/:id/flows/:flow': 'FlowEditorScreen',
  '/app/console/bots/:id/integrations': 'IntegrationsScreen',
  '/app/console/people': 'PeopleScreen',
  '/app/console/keys': 'KeysScreen',
  '/app/console/operations': 'OperationsScreen',
}
const layout = chunks.find((name) => name.startsWith('ConsoleLayout-')) as string
for (const [route, screen] of Object.entries(screens)) {
  const chunk = chunks.find((name) => name.startsWith(`${screen}-`)) as string
  const own = [...closure([`chunks/${layout}`, `chunks/${chunk}`])].filter((file) => !first.has(file))
  const bytes = own.reduce((sum, file) => sum + gz(file), 0)
  console.log(`${route.padEnd(38)} +${kb(bytes).padStart(9)}  (${own.map((file) => file.replace('chunks/', '')).join(', ')})`)
}
// The flow editor's lazily loaded parts, each with what it imports beyond the editor screen.
const editor = closure([`chunks/${layout}`, `chunks/${chunks.find((name) => name.startsWith('FlowEditorScreen-'))}`])
for (const [what, prefix] of [['then the canvas (flow builder, @xyflow/system)', 'FlowBuilder-'], ['then the JSON tab (CodeMirror)', 'JsonView-']] as const) {
  const chunk = chunks.find((name) => name.startsWith(prefix)) as string
  const own = [...closure([`chunks/${chunk}`])].filter((file) => !first.has(file) && !editor.has(file))
  console.log(`  ${what.padEnd(44)} +${kb(own.reduce((sum, file) => sum + gz(file), 0)).padStart(9)}  (${own.map((file) => file.replace('chunks/', '')).join(', ')})`)
}
const reached = new Set([...first, `chunks/${layout}`, ...Object.values(screens).flatMap((screen) => [...closure([`chunks/${chunks.find((name) => name.startsWith(`${screen}-`))}`])])])
for (const name of chunks.filter((name) => !reached.has(`chunks/${name}`))) console.log(`  loaded only when used (dynamic import): ${name} ${kb(gz(`chunks/${name}`))}`)
