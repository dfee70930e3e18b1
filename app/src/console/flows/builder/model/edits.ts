import { t } from '../../../../i18n/language.ts'
import { isObject, type Json, objectsIn } from './json.ts'
import { portsOf } from './flow-model.ts'

/**
 * What the canvas and the side panel change in a definition, as pure functions: each returns
 * a new definition and leaves the given one as it was. They touch only what they are about;
 * every other key, unknown ones included, stays where it was, in its order.
 */

export const STATE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/

export type Position = { x: number; y: number }

const statesOf = (flow: Json): Json => (isObject(flow.states) ? flow.states : {})

/** A name like `base`, `base_2`, `base_3` that no state has yet. */
export function freeName(flow: Json, base: string): string {
  const taken = statesOf(flow)
  const clean = base.replace(/[^A-Za-z0-9_-]/g, '_').replace(/^[^A-Za-z_]/, '_$&').slice(0, 58) || 'state'
  if (!Object.hasOwn(taken, clean)) return clean
  for (let n = 2; ; n++) if (!Object.hasOwn(taken, `${clean}_${n}`)) return `${clean}_${n}`
}

/** Adds a state (and the variables it needs, and `version`/`start` to an empty flow); `at` is its place on the canvas. */
export function addState(flow: Json, base: string, state: Json, at?: Position, variables: Record<string, Json> = {}): { flow: Json; name: string } {
  const next = structuredClone(flow)
  if (next.version === undefined) next.version = 1
  const name = freeName(next, base)
  if (typeof next.start !== 'string' || !Object.hasOwn(statesOf(next), next.start)) next.start = name
  for (const [variable, declaration] of Object.entries(variables)) {
    const declared = isObject(next.variables) ? next.variables : (next.variables = {})
    if (!Object.hasOwn(declared as Json, variable)) (declared as Json)[variable] = declaration
  }
  if (!isObject(next.states)) next.states = {}
  ;(next.states as Json)[name] = state
  return { flow: at ? moveStates(next, { [name]: at }) : next, name }
}

/** Every place that names a state: `[holder, key]` pairs to read and set, with the way it is. */
function references(flow: Json): { from: string; way: string; holder: Json; key: string }[] {
  const found: { from: string; way: string; holder: Json; key: string }[] = []
  for (const [from, value] of Object.entries(statesOf(flow))) {
    if (!isObject(value)) continue
    if (typeof value.next === 'string') found.push({ from, way: 'next', holder: value, key: 'next' })
    for (const { value: transition, index } of objectsIn(value.on)) if (typeof transition.to === 'string') found.push({ from, way: `on/${index}`, holder: transition, key: 'to' })
    for (const { value: rule, index } of objectsIn(value.branch)) if (typeof rule.to === 'string') found.push({ from, way: `branch/${index}`, holder: rule, key: 'to' })
    if (isObject(value.handoff) && typeof value.handoff.resume === 'string') found.push({ from, way: 'handoff/resume', holder: value.handoff, key: 'resume' })
    if (isObject(value.agent)) {
      const agent = value.agent
      for (const { value: exit, index } of objectsIn(agent.exits)) if (typeof exit.to === 'string') found.push({ from, way: `agent/exits/${index}`, holder: exit, key: 'to' })
      for (const key of ['on_limit', 'on_error']) if (typeof agent[key] === 'string') found.push({ from, way: `agent/${key}`, holder: agent, key })
    }
  }
  return found
}

/** The ways that lead into a state (and whether it is the start), to show before deleting it. */
export function incoming(flow: Json, name: string): { from: string; way: string; label: string }[] {
  const labels = (from: string) => new Map(portsOf((statesOf(flow)[from] as Json) ?? {}).map((port) => [port.way, port.label]))
  const ways = references(flow)
    .filter((reference) => reference.holder[reference.key] === name)
    .map(({ from, way }) => ({ from, way, label: labels(from).get(way) ?? way }))
  return flow.start === name ? [{ from: '', way: 'start', label: t('flowModel.theStart') }, ...ways] : ways
}

/** Renames a state; `start`, every way that names it and its place on the canvas follow. */
export function renameState(flow: Json, from: string, to: string): Json | string {
  if (from === to) return flow
  if (!STATE_NAME.test(to)) return t('flowModel.badName')
  if (Object.hasOwn(statesOf(flow), to)) return t('flowModel.nameTaken', { name: to })
  const next = structuredClone(flow)
  next.states = Object.fromEntries(Object.entries(statesOf(next)).map(([name, state]) => [name === from ? to : name, state]))
  for (const reference of references(next)) if (reference.holder[reference.key] === from) reference.holder[reference.key] = to
  if (next.start === from) next.start = to
  const placed = layoutOf(next)
  if (placed && Object.hasOwn(placed, from)) (next.layout as Json).states = Object.fromEntries(Object.entries(placed).map(([name, at]) => [name === from ? to : name, at]))
  return next
}

/**
 * Deletes states; the ways that led into them go with them (a transition, a branch entry, an
 * exit, a `next`), and the start moves to the first state left when it was one of them.
 */
export function deleteStates(flow: Json, names: string[]): Json {
  const gone = new Set(names)
  const next = structuredClone(flow)
  next.states = Object.fromEntries(Object.entries(statesOf(next)).filter(([name]) => !gone.has(name)))
  for (const value of Object.values(statesOf(next))) {
    if (!isObject(value)) continue
    if (typeof value.next === 'string' && gone.has(value.next)) delete value.next
    for (const key of ['on', 'branch'] as const) {
      if (!Array.isArray(value[key])) continue
      const kept = (value[key] as unknown[]).filter((item) => !(isObject(item) && typeof item.to === 'string' && gone.has(item.to)))
      if (kept.length > 0) value[key] = kept
      else delete value[key]
    }
    if (isObject(value.handoff) && typeof value.handoff.resume === 'string' && gone.has(value.handoff.resume)) delete value.handoff.resume
    if (isObject(value.agent)) {
      const agent = value.agent
      if (Array.isArray(agent.exits)) agent.exits = agent.exits.filter((exit) => !(isObject(exit) && typeof exit.to === 'string' && gone.has(exit.to)))
      for (const key of ['on_limit', 'on_error']) if (typeof agent[key] === 'string' && gone.has(agent[key] as string)) delete agent[key]
    }
  }
  if (typeof next.start === 'string' && gone.has(next.start)) {
    const first = Object.keys(statesOf(next))[0]
    if (first) next.start = first
    else delete next.start
  }
  const placed = layoutOf(next)
  if (placed) for (const name of gone) delete placed[name]
  return next
}

/** Points a way of a state at another state (a port's `way`, as flowModel names it). */
export function connect(flow: Json, from: string, way: string, to: string): Json {
  const next = structuredClone(flow)
  const state = statesOf(next)[from]
  if (!isObject(state)) return flow
  const reply = /^(button|row):(.*)$/.exec(way)
  if (reply) {
    const transitions = Array.isArray(state.on) ? (state.on as unknown[]) : (state.on = [])
    // Before a trailing catch-all, which would otherwise take the reply first.
    const last = transitions.at(-1)
    const at = isObject(last) && Object.keys(last).length === 1 && 'to' in last ? transitions.length - 1 : transitions.length
    transitions.splice(at, 0, { [reply[1] as string]: reply[2], to })
    return next
  }
  const [head, index, ...rest] = way.split('/')
  if (way === 'next') state.next = to
  else if ((head === 'on' || head === 'branch') && Array.isArray(state[head]) && isObject((state[head] as unknown[])[Number(index)])) ((state[head] as Json[])[Number(index)] as Json).to = to
  else if (way === 'handoff/resume' && isObject(state.handoff)) state.handoff.resume = to
  else if (head === 'agent' && isObject(state.agent)) {
    if (index === 'exits' && Array.isArray(state.agent.exits) && isObject(state.agent.exits[Number(rest[0])])) (state.agent.exits[Number(rest[0])] as Json).to = to
    else if (index === 'on_limit' || index === 'on_error') state.agent[index] = to
  } else return flow
  return next
}

export function layoutOf(flow: Json): Record<string, Position> | null {
  return isObject(flow.layout) && isObject(flow.layout.states) ? (flow.layout.states as Record<string, Position>) : null
}

/** Keeps states' places on the canvas (whole pixels) under `layout.states`. */
export function moveStates(flow: Json, places: Record<string, Position>): Json {
  const next = structuredClone(flow)
  if (!isObject(next.layout)) next.layout = {}
  const layout = next.layout as Json
  if (!isObject(layout.states)) layout.states = {}
  for (const [name, at] of Object.entries(places)) (layout.states as Json)[name] = { x: Math.round(at.x), y: Math.round(at.y) }
  return next
}

export interface Clipboard {
  states: Record<string, unknown>
  places: Record<string, Position>
}

export function copyStates(flow: Json, names: string[]): Clipboard {
  const table = statesOf(flow)
  const placed = layoutOf(flow) ?? {}
  const states = Object.fromEntries(names.filter((name) => Object.hasOwn(table, name)).map((name) => [name, structuredClone(table[name])]))
  const places = Object.fromEntries(names.filter((name) => placed[name]).map((name) => [name, { ...(placed[name] as Position) }]))
  return { states, places }
}

/** Pastes copied states under new names, `offset` away; ways between them follow the new names, ways out of them stay. */
export function pasteStates(flow: Json, clip: Clipboard, offset: Position): { flow: Json; names: string[] } {
  let next = structuredClone(flow)
  const renamed = new Map<string, string>()
  for (const name of Object.keys(clip.states)) {
    const fresh = freeName({ states: { ...statesOf(next), ...Object.fromEntries([...renamed.values()].map((n) => [n, {}])) } }, `${name}_copy`)
    renamed.set(name, fresh)
  }
  const pasted: Json = { states: Object.fromEntries([...renamed].map(([old, fresh]) => [fresh, structuredClone(clip.states[old])])) }
  for (const reference of references(pasted)) {
    const target = reference.holder[reference.key] as string
    if (renamed.has(target)) reference.holder[reference.key] = renamed.get(target)
  }
  if (!isObject(next.states)) next.states = {}
  Object.assign(next.states as Json, pasted.states as Json)
  if (next.version === undefined) next.version = 1
  if (typeof next.start !== 'string') next.start = [...renamed.values()][0]
  const places: Record<string, Position> = {}
  for (const [old, fresh] of renamed) {
    const at = clip.places[old]
    if (at) places[fresh] = { x: at.x + offset.x, y: at.y + offset.y }
  }
  if (Object.keys(places).length > 0) next = moveStates(next, places)
  return { flow: next, names: [...renamed.values()] }
}

/** The ways out a state can have; switching keeps the state's messages and unknown keys. */
export const WAY_OUT_KEYS = ['next', 'branch', 'end', 'on', 'capture', 'handoff', 'agent'] as const
