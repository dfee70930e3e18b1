import { type DefinitionView, stateReferences } from './definition-view.ts'
import type { Findings } from './findings.ts'

/** Warns about states no path from `start` leads to: they can never run. */
export function checkReachability(view: DefinitionView, findings: Findings): void {
  const start = view.root?.start
  if (typeof start !== 'string' || !view.state(start)) return
  const reached = new Set([start])
  const queue = [start]
  for (let at = 0; at < queue.length; at++) {
    const entry = view.state(queue[at] as string)
    if (!entry) continue
    for (const { target } of stateReferences(entry)) {
      if (reached.has(target)) continue
      reached.add(target)
      queue.push(target)
    }
  }
  for (const { name, path } of view.states) {
    if (!reached.has(name)) {
      findings.warning(path, 'unreachable_state', `state "${name}" cannot be reached from start ("${start}"); no transition leads to it`)
    }
  }
}
