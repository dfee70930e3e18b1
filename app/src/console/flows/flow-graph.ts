/**
 * The states of a conversation flow and the ways between them, read from its definition for
 * the diagram: which states the start cannot reach, and which have no way out. Tolerant of a
 * draft: whatever is not shaped like a flow is skipped, never thrown on.
 */
export interface FlowGraph {
  start: string | null
  states: string[]
  edges: { from: string; to: string; label: string }[]
  unreachable: Set<string>
  deadEnds: Set<string>
  ends: Set<string>
}

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

function waysOut(state: Json): { to: string; label: string }[] {
  const ways: { to: string; label: string }[] = []
  const add = (to: unknown, label: string) => {
    if (typeof to === 'string') ways.push({ to, label })
  }
  add(state.next, 'next')
  if (Array.isArray(state.on)) {
    for (const transition of state.on) {
      if (!isObject(transition)) continue
      const label = typeof transition.button === 'string' ? transition.button : typeof transition.equals === 'string' ? `= ${transition.equals}` : typeof transition.match === 'string' ? `~ ${transition.match}` : typeof transition.row === 'string' ? transition.row : 'else'
      add(transition.to, label)
    }
  }
  if (isObject(state.handoff)) add(state.handoff.resume, 'resume')
  if (isObject(state.agent)) {
    const agent = state.agent
    if (Array.isArray(agent.exits)) for (const exit of agent.exits) if (isObject(exit)) add(exit.to, typeof exit.when === 'string' ? exit.when : 'exit')
    add(agent.on_limit, 'limit')
    add(agent.on_error, 'error')
  }
  return ways
}

export function flowGraph(definition: unknown): FlowGraph {
  const flow = isObject(definition) ? definition : {}
  const table = isObject(flow.states) ? flow.states : {}
  const states = Object.keys(table)
  const start = typeof flow.start === 'string' ? flow.start : null
  const edges: FlowGraph['edges'] = []
  const deadEnds = new Set<string>()
  const ends = new Set<string>()
  for (const name of states) {
    const state = isObject(table[name]) ? (table[name] as Json) : {}
    for (const way of waysOut(state)) edges.push({ from: name, ...way })
    if (state.end === true) ends.add(name)
    // A handoff waits for a person and a capture or `on` waits for the visitor: those are ways out too.
    const waits = state.on !== undefined || state.capture !== undefined || state.handoff !== undefined || state.agent !== undefined
    if (state.end !== true && state.next === undefined && !waits) deadEnds.add(name)
  }
  const reached = new Set<string>()
  const queue = start !== null && start in table ? [start] : []
  while (queue.length > 0) {
    const name = queue.shift() as string
    if (reached.has(name)) continue
    reached.add(name)
    for (const edge of edges) if (edge.from === name && edge.to in table && !reached.has(edge.to)) queue.push(edge.to)
  }
  // A handoff without `resume` goes back to the start: the start stays reachable, nothing more.
  const unreachable = new Set(states.filter((name) => !reached.has(name)))
  return { start, states, edges, unreachable, deadEnds, ends }
}
