import { type DefinitionView, isRecord, movesOnAtOnce, stateReferences, waysOut } from './definition-view.ts'
import type { Findings } from './findings.ts'

const WAYS = 'next, branch, end, on, capture (with next), handoff or agent'

/**
 * Every state has exactly one way out, `capture` goes on with `next`, and states that move on
 * at once (`next`, `branch`) never form a cycle: such a cycle would have the bot talk to
 * itself forever.
 */
export function checkWaysOut(view: DefinitionView, findings: Findings): void {
  for (const { name, path, state } of view.states) {
    const ways = waysOut(state)
    if (ways.length === 0) {
      findings.error(path, 'no_way_out', `state "${name}" has no way out: give it one of ${WAYS}`)
    } else if (ways.length > 1) {
      findings.error(path, 'several_ways_out', `state "${name}" has several ways out (${ways.join(', ')}): keep exactly one of ${WAYS}`)
    }
    if (state.capture !== undefined && state.next === undefined) {
      findings.error(`${path}/next`, 'missing_field', 'next is required with capture: the state to go to once the value is stored')
    }
    if (isRecord(state.agent) && state.agent.max_turns !== undefined && state.agent.on_limit === undefined) {
      findings.error(`${path}/agent/on_limit`, 'missing_field', 'on_limit is required with max_turns: the state to go to once the agent has answered that many messages')
    }
  }
  for (const { cycle, path } of loopsWithoutInput(view)) {
    findings.error(
      path,
      'endless_loop',
      `${[...cycle, cycle[0]].join(' → ')} never waits for input, so the bot would talk forever: ` +
        'make one of these states wait (on, capture, handoff, agent) or end',
    )
  }
}

/**
 * Cycles among states that move on at once (by `next` or any `branch` entry), each reported
 * once, starting at its earliest state, at the reference that leaves that state in the cycle.
 */
function loopsWithoutInput(view: DefinitionView): { cycle: string[]; path: string }[] {
  const order = new Map(view.states.map((entry, index) => [entry.name, index]))
  const onward = new Map<string, { target: string; path: string }[]>()
  for (const entry of view.states) {
    if (!movesOnAtOnce(entry.state)) continue
    onward.set(entry.name, stateReferences(entry).filter(({ target }) => view.state(target) !== undefined))
  }
  const found = new Map<string, { cycle: string[]; path: string }>()
  const finished = new Set<string>()
  // Depth-first over the move-at-once edges (a stack of its own: a chain may be thousands of
  // states long); an edge back to a state on the walk closes a cycle.
  const walk: string[] = []
  const onWalk = new Set<string>()
  const visit = (from: string): void => {
    const pending: { name: string; next: number }[] = [{ name: from, next: 0 }]
    walk.push(from)
    onWalk.add(from)
    while (pending.length > 0) {
      const top = pending[pending.length - 1] as { name: string; next: number }
      const edges = onward.get(top.name) ?? []
      if (top.next >= edges.length) {
        pending.pop()
        walk.pop()
        onWalk.delete(top.name)
        finished.add(top.name)
        continue
      }
      const { target } = edges[top.next++] as { target: string }
      if (onWalk.has(target)) record(walk.slice(walk.indexOf(target)))
      else if (!finished.has(target) && onward.has(target)) {
        pending.push({ name: target, next: 0 })
        walk.push(target)
        onWalk.add(target)
      }
    }
  }
  const record = (cycle: string[]) => {
    const earliest = cycle.reduce((best, name, at) => ((order.get(name) ?? 0) < (order.get(cycle[best] as string) ?? 0) ? at : best), 0)
    const turned = [...cycle.slice(earliest), ...cycle.slice(0, earliest)]
    const key = turned.join('\u0000')
    if (found.has(key)) return
    const first = turned[0] as string
    const second = turned[1] ?? first
    const leaving = onward.get(first)?.find(({ target }) => target === second)
    found.set(key, { cycle: turned, path: leaving?.path ?? `${view.state(first)?.path}/next` })
  }
  for (const name of onward.keys()) if (!finished.has(name)) visit(name)
  return [...found.values()]
}
