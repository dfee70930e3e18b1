/**
 * Sums a Chrome .cpuprofile (what `bun --cpu-prof` writes) by module: each sample's time goes
 * to the function on top of its stack, and that function to its file (server/..., a package
 * under node_modules, or Bun's own native code). Only samples inside [fromMs, toMs] (epoch
 * milliseconds) count, so that start-up and set-up are left out of a load's breakdown.
 */
import { readFileSync } from 'node:fs'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

export interface ProfileSummary {
  /** CPU time in the window, idle left out, in microseconds. */
  busyUs: number
  /** Wall time the window covers, in microseconds. */
  windowUs: number
  modules: { module: string; us: number }[]
  functions: { name: string; us: number }[]
}

/** `server/people/authenticate.ts`, `elysia`, `(garbage collector)`; native code is its caller's. */
export function moduleOf(url: string, functionName: string, root: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'native (Bun, SQLite, JSC built-ins)'
  const path = decodeURIComponent(url.replace(/^file:\/\//, ''))
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path)
  if (inPackage) return inPackage[1] as string
  if (path.startsWith(root)) return path.slice(root.length + 1)
  return path.startsWith('/') ? path : `bun built-in (${path})`
}

export function summariseProfile(file: string, root: string, fromMs = 0, toMs = Number.POSITIVE_INFINITY): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parentOf = new Map<number, ProfileNode>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node)
  // Native code (SQLite, Bun's sockets, JSC built-ins) is charged to the JavaScript that called it.
  const callerOf = (node: ProfileNode): ProfileNode | undefined => {
    let at: ProfileNode | undefined = node
    while (at && !at.callFrame.url) at = parentOf.get(at.id)
    return at
  }
  const modules = new Map<string, number>()
  const functions = new Map<string, number>()
  let at = profile.startTime
  let busyUs = 0
  let first = Number.POSITIVE_INFINITY
  let last = 0
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    if (at / 1000 < fromMs || at / 1000 > toMs) continue
    first = Math.min(first, at)
    last = Math.max(last, at)
    const node = byId.get(profile.samples[i] as number)
    if (!node) continue
    const { functionName, url } = node.callFrame
    if (functionName === '(idle)') continue
    // A sample stands for the time since the one before it (Bun samples about every millisecond).
    busyUs += delta
    const caller = url ? node : callerOf(node)
    const module = caller && !functionName.startsWith('(') ? moduleOf(caller.callFrame.url, '', root) : moduleOf(url, functionName, root)
    modules.set(module, (modules.get(module) ?? 0) + delta)
    const where = caller ? `${moduleOf(caller.callFrame.url, '', root)}:${caller.callFrame.lineNumber + 1}` : moduleOf(url, functionName, root)
    const name = url ? `${functionName || '(anonymous)'}  ${where}` : `${functionName || '(anonymous)'} (native)${caller ? ` ← ${caller.callFrame.functionName || '(anonymous)'}  ${where}` : ''}`
    functions.set(name, (functions.get(name) ?? 0) + delta)
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1])
  return {
    busyUs,
    windowUs: Math.max(0, last - first),
    modules: sorted(modules).map(([module, us]) => ({ module, us })),
    functions: sorted(functions).map(([name, us]) => ({ name, us })),
  }
}

/** A markdown table: each module's share of the busy time (native code it called included) and its microseconds per unit (request, turn). */
export function formatSummary(summary: ProfileSummary, units: number, unitName: string, cpuUsPerUnit: number, top = 25): string {
  // Samples are taken on the wall clock, also while the thread waits for a core on a busy
  // machine: their shares are what counts, and the thread's measured CPU time is what they share.
  const share = (us: number) => us / Math.max(1, summary.busyUs)
  const perUnit = (us: number) => (units > 0 ? (share(us) * cpuUsPerUnit).toFixed(1) : '-')
  const pct = (us: number) => (100 * share(us)).toFixed(1)
  const lines = [
    `${summary.busyUs > 0 ? Math.round(summary.busyUs / 1000) : 0} ms of samples over ${(summary.windowUs / 1000).toFixed(0)} ms, ${units} ${unitName}s; ${cpuUsPerUnit.toFixed(1)} µs of the serving thread's CPU per ${unitName}, shared out by the samples`,
    '',
    `| module | share | µs per ${unitName} |`,
    '|---|---:|---:|',
    ...summary.modules.slice(0, top).map((row) => `| ${row.module} | ${pct(row.us)}% | ${perUnit(row.us)} |`),
    '',
    `| function (top ${top}) | share | µs per ${unitName} |`,
    '|---|---:|---:|',
    ...summary.functions.slice(0, top).map((row) => `| ${row.name.replace(/\|/g, '\\|')} | ${pct(row.us)}% | ${perUnit(row.us)} |`),
  ]
  return lines.join('\n')
}
