import { type DefinitionView, isRecord, movesOnAtOnce, waysOut } from './definition-view.ts'
import type { Findings } from './findings.ts'

const WAYS = 'next, end, on, capture (with next), handoff or agent'

/**
 * Every state has exactly one way out, `capture` goes on with `next`, and states that move on
 * at once never form a cycle: such a cycle would have the bot talk to itself forever.
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
  for (const cycle of loopsWithoutInput(view)) {
    const first = view.state(cycle[0] as string)
    if (!first) continue
    findings.error(
      `${first.path}/next`,
      'endless_loop',
      `${[...cycle, cycle[0]].join(' → ')} never waits for input, so the bot would talk forever: ` +
        'make one of these states wait (on, capture, handoff, agent) or end',
    )
  }
}

/** Cycles of `next` among states that move on at once, each starting at its earliest state. */
function loopsWithoutInput(view: DefinitionView): string[][] {
  const order = new Map(view.states.map((entry, index) => [entry.name, index]))
  const nextOf = new Map<string, string>()
  for (const { name, state } of view.states) if (movesOnAtOnce(state)) nextOf.set(name, state.next)
  const done = new Set<string>()
  const cycles: string[][] = []
  for (const start of nextOf.keys()) {
    if (done.has(start)) continue
    const walk: string[] = []
    const onWalk = new Set<string>()
    let current: string | undefined = start
    while (current !== undefined && nextOf.has(current) && !done.has(current) && !onWalk.has(current)) {
      walk.push(current)
      onWalk.add(current)
      current = nextOf.get(current)
    }
    if (current !== undefined && onWalk.has(current)) {
      const cycle = walk.slice(walk.indexOf(current))
      const earliest = cycle.reduce((best, name, at) => ((order.get(name) ?? 0) < (order.get(cycle[best] as string) ?? 0) ? at : best), 0)
      cycles.push([...cycle.slice(earliest), ...cycle.slice(0, earliest)])
    }
    for (const name of walk) done.add(name)
  }
  return cycles
}
