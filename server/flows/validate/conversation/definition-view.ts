import { pointer } from '../validation-issue.ts'

/**
 * A tolerant reading of a definition for the rule groups: the schema rules have already
 * reported every value of the wrong shape, so the other rules look only at what has the
 * right shape and skip the rest instead of failing on it.
 */

export type JsonObject = Record<string, unknown>

export type MessageKind = 'text' | 'buttons' | 'list' | 'media' | 'meta_flow'
export type TransitionKind = 'button' | 'row' | 'match' | 'equals' | 'always'
export type WayOut = 'next' | 'branch' | 'end' | 'on' | 'capture' | 'handoff' | 'agent'

export interface StateEntry {
  name: string
  /** JSON Pointer to the state, e.g. `/states/welcome`. */
  path: string
  state: JsonObject
}

export interface MessageEntry {
  message: JsonObject
  path: string
  kind: MessageKind
}

export interface TransitionEntry {
  transition: JsonObject
  path: string
  index: number
  kind: TransitionKind
}

export interface StateReference {
  target: string
  path: string
}

export interface DefinitionView {
  root: JsonObject | undefined
  /** Every key of `states`, whatever its value. */
  stateNames: ReadonlySet<string>
  /** The states whose value is an object, in definition order. */
  states: readonly StateEntry[]
  state(name: string): StateEntry | undefined
  /** Declared variable names and their declarations (objects only). */
  variables: ReadonlyMap<string, JsonObject>
  messages(entry: StateEntry): MessageEntry[]
  transitions(entry: StateEntry): TransitionEntry[]
}

export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function definitionView(definition: unknown): DefinitionView {
  const root = isRecord(definition) ? definition : undefined
  const statesValue = isRecord(root?.states) ? root.states : {}
  const stateNames = new Set(Object.keys(statesValue))
  const states: StateEntry[] = []
  for (const [name, state] of Object.entries(statesValue)) {
    if (isRecord(state)) states.push({ name, path: pointer('states', name), state })
  }
  const byName = new Map(states.map((entry) => [entry.name, entry]))
  const variables = new Map<string, JsonObject>()
  if (isRecord(root?.variables)) {
    for (const [name, declaration] of Object.entries(root.variables)) {
      variables.set(name, isRecord(declaration) ? declaration : {})
    }
  }
  return {
    root,
    stateNames,
    states,
    state: (name) => byName.get(name),
    variables,
    messages: ({ state, path }) =>
      objectsIn(state.say).map(({ value, index }) => ({ message: value, path: `${path}/say/${index}`, kind: messageKind(value) })),
    transitions: ({ state, path }) =>
      objectsIn(state.on).map(({ value, index }) => ({ transition: value, path: `${path}/on/${index}`, index, kind: transitionKind(value) })),
  }
}

/** The objects of an array with their indexes; nothing when it is not an array. */
export function objectsIn(value: unknown): { value: JsonObject; index: number }[] {
  if (!Array.isArray(value)) return []
  return value.flatMap((item, index) => (isRecord(item) ? [{ value: item, index }] : []))
}

/** Which kind of message this is, decided by its distinctive key, as the schema rules decide it. */
export function messageKind(message: JsonObject): MessageKind {
  if ('buttons' in message) return 'buttons'
  if ('sections' in message || 'button' in message) return 'list'
  if ('media' in message) return 'media'
  if ('meta_flow' in message) return 'meta_flow'
  return 'text'
}

/** A transition's condition, decided by its key; none means it is always taken. */
export function transitionKind(transition: JsonObject): TransitionKind {
  for (const kind of ['button', 'row', 'match', 'equals'] as const) if (kind in transition) return kind
  return 'always'
}

/** The ways out a state declares; `next` belongs to `capture` when both are there. */
export function waysOut(state: JsonObject): WayOut[] {
  const present = (['next', 'branch', 'end', 'on', 'capture', 'handoff', 'agent'] as const).filter((way) => state[way] !== undefined)
  return present.includes('capture') ? present.filter((way) => way !== 'next') : present
}

/** A state that moves on at once, without waiting for the visitor: its one way out is `next` or `branch`. */
export function movesOnAtOnce(state: JsonObject): boolean {
  const ways = waysOut(state)
  return ways.length === 1 && (ways[0] === 'next' || ways[0] === 'branch')
}

/**
 * Every place a state names another state: next, branch[].to, on[].to, handoff.resume,
 * agent.exits[].to, agent.on_limit and agent.on_error.
 */
export function stateReferences({ state, path }: StateEntry): StateReference[] {
  const references: StateReference[] = []
  if (typeof state.next === 'string') references.push({ target: state.next, path: `${path}/next` })
  for (const { value, index } of objectsIn(state.branch)) {
    if (typeof value.to === 'string') references.push({ target: value.to, path: `${path}/branch/${index}/to` })
  }
  for (const { value, index } of objectsIn(state.on)) {
    if (typeof value.to === 'string') references.push({ target: value.to, path: `${path}/on/${index}/to` })
  }
  if (isRecord(state.handoff) && typeof state.handoff.resume === 'string') {
    references.push({ target: state.handoff.resume, path: `${path}/handoff/resume` })
  }
  if (isRecord(state.agent)) {
    for (const { value, index } of objectsIn(state.agent.exits)) {
      if (typeof value.to === 'string') references.push({ target: value.to, path: `${path}/agent/exits/${index}/to` })
    }
    for (const key of ['on_limit', 'on_error'] as const) {
      const target = state.agent[key]
      if (typeof target === 'string') references.push({ target, path: `${path}/agent/${key}` })
    }
  }
  return references
}
