import { t } from '../../../../i18n/language.ts'
import { isObject, type Json, objectsIn } from './json.ts'

/**
 * A conversation flow read for the canvas: each state a node (its kind, what it says and
 * asks, and a port for every way out), each way that names a state an edge. Tolerant of any
 * draft: whatever is not shaped like a flow is skipped, never thrown on.
 */

export type StateKind = 'message' | 'question' | 'list' | 'capture' | 'condition' | 'handoff' | 'agent' | 'end'

/** What a way out is, for its label and colour. */
export type WayKind = 'next' | 'button' | 'row' | 'equals' | 'match' | 'fallback' | 'capture' | 'branch' | 'else' | 'hours' | 'exit' | 'limit' | 'error' | 'resume'

export interface Port {
  /**
   * The way's pointer under the state without `/to` (`next`, `on/2`, `branch/0`,
   * `agent/exits/1`, `handoff/resume`, ...), or `button:ID` / `row:ID` for a reply a message
   * offers that no transition takes yet (dragging from it adds one).
   */
  way: string
  kind: WayKind
  label: string
  to: string | null
}

export interface StateNode {
  name: string
  kind: StateKind
  /** What the state says, one line per message. */
  says: string[]
  /** What it waits for, in a few words (capture, agent instructions). */
  asks: string | null
  ports: Port[]
}

export interface FlowEdge {
  id: string
  from: string
  way: string
  to: string
  kind: WayKind
  label: string
}

export interface FlowModel {
  start: string | null
  nodes: StateNode[]
  edges: FlowEdge[]
  unreachable: Set<string>
  deadEnds: Set<string>
}

const KIND_KEYS = {
  message: 'flowModel.kind.message',
  question: 'flowModel.kind.question',
  list: 'flowModel.kind.list',
  capture: 'flowModel.kind.capture',
  condition: 'flowModel.kind.condition',
  handoff: 'flowModel.kind.handoff',
  agent: 'flowModel.kind.agent',
  end: 'flowModel.kind.end',
} as const satisfies Record<StateKind, string>

/** A kind's name in the language shown (reactive). */
export const kindLabel = (kind: StateKind): string => t(KIND_KEYS[kind])

const short = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
const str = (value: unknown) => (typeof value === 'string' ? value : '')

export function kindOf(state: Json): StateKind {
  if (state.end === true) return 'end'
  if (state.handoff !== undefined) return 'handoff'
  if (state.agent !== undefined) return 'agent'
  if (state.capture !== undefined) return 'capture'
  if (state.branch !== undefined) return 'condition'
  if (state.on !== undefined) return objectsIn(state.say).some(({ value }) => 'sections' in value) ? 'list' : 'question'
  return 'message'
}

function sayLine(message: Json): string {
  if (isObject(message.media)) return `[${str(message.media.type) || t('flowModel.media')}] ${str(message.media.caption) || str(message.media.filename) || str(message.media.url)}`
  if (isObject(message.meta_flow)) return `[${t('flowModel.form')}] ${str(message.meta_flow.cta)}`
  return short(str(message.text))
}

/** Button and row titles the state's messages offer, by id. */
function offers(state: Json): { buttons: Map<string, string>; rows: Map<string, string> } {
  const buttons = new Map<string, string>()
  const rows = new Map<string, string>()
  for (const { value: message } of objectsIn(state.say)) {
    for (const { value } of objectsIn(message.buttons)) if (typeof value.id === 'string') buttons.set(value.id, str(value.title) || value.id)
    for (const { value: section } of objectsIn(message.sections)) for (const { value } of objectsIn(section.rows)) if (typeof value.id === 'string') rows.set(value.id, str(value.title) || value.id)
  }
  return { buttons, rows }
}

function branchLabel(rule: Json): { kind: WayKind; label: string } {
  if (isObject(rule.hours)) return { kind: 'hours', label: t('flowModel.way.open', { from: str(rule.hours.from), until: str(rule.hours.until) }) }
  const subject = typeof rule.var === 'string' ? rule.var : typeof rule.contact === 'string' ? `contact.${rule.contact}` : null
  if (subject === null) return { kind: 'else', label: t('flowModel.way.else') }
  if (rule.set === true) return { kind: 'branch', label: t('flowModel.way.isSet', { subject }) }
  if (rule.set === false) return { kind: 'branch', label: t('flowModel.way.isNotSet', { subject }) }
  return { kind: 'branch', label: `${subject} = ${String(rule.equals ?? '')}` }
}

export function portsOf(state: Json): Port[] {
  const ports: Port[] = []
  const target = (value: unknown) => (typeof value === 'string' ? value : null)
  const kind = kindOf(state)
  if (kind === 'end') return ports
  if (Array.isArray(state.on)) {
    const { buttons, rows } = offers(state)
    const taken = { buttons: new Set<string>(), rows: new Set<string>() }
    for (const { value, index } of objectsIn(state.on)) {
      const way = `on/${index}`
      if (typeof value.button === 'string') {
        taken.buttons.add(value.button)
        ports.push({ way, kind: 'button', label: buttons.get(value.button) ?? value.button, to: target(value.to) })
      } else if (typeof value.row === 'string') {
        taken.rows.add(value.row)
        ports.push({ way, kind: 'row', label: rows.get(value.row) ?? value.row, to: target(value.to) })
      } else if (typeof value.match === 'string') ports.push({ way, kind: 'match', label: `~ ${short(value.match, 24)}`, to: target(value.to) })
      else if (typeof value.equals === 'string') ports.push({ way, kind: 'equals', label: `= ${short(value.equals, 24)}`, to: target(value.to) })
      else ports.push({ way, kind: 'fallback', label: t('flowModel.way.anythingElse'), to: target(value.to) })
    }
    for (const [id, title] of buttons) if (!taken.buttons.has(id)) ports.push({ way: `button:${id}`, kind: 'button', label: title, to: null })
    for (const [id, title] of rows) if (!taken.rows.has(id)) ports.push({ way: `row:${id}`, kind: 'row', label: title, to: null })
    return ports
  }
  if (kind === 'capture') return [{ way: 'next', kind: 'capture', label: t('flowModel.way.then'), to: target(state.next) }]
  if (Array.isArray(state.branch)) return objectsIn(state.branch).map(({ value, index }) => ({ way: `branch/${index}`, ...branchLabel(value), to: target(value.to) }))
  if (isObject(state.handoff)) return [{ way: 'handoff/resume', kind: 'resume', label: t('flowModel.way.handedBack'), to: target(state.handoff.resume) }]
  if (isObject(state.agent)) {
    const agent = state.agent
    for (const { value, index } of objectsIn(agent.exits)) ports.push({ way: `agent/exits/${index}`, kind: 'exit', label: short(str(value.when) || t('flowModel.way.exit'), 40), to: target(value.to) })
    if (agent.max_turns !== undefined || agent.on_limit !== undefined) ports.push({ way: 'agent/on_limit', kind: 'limit', label: t('flowModel.way.turnLimit'), to: target(agent.on_limit) })
    ports.push({ way: 'agent/on_error', kind: 'error', label: t('flowModel.way.onError'), to: target(agent.on_error) })
    return ports
  }
  return [{ way: 'next', kind: 'next', label: t('flowModel.way.then'), to: target(state.next) }]
}

function asksOf(state: Json, kind: StateKind): string | null {
  if (kind === 'capture' && isObject(state.capture)) return t('flowModel.captureInto', { as: str(state.capture.as) || 'text', variable: `{{${str(state.capture.var)}}}` })
  if (kind === 'agent' && isObject(state.agent)) return short(str(state.agent.instructions), 80)
  if (kind === 'handoff' && isObject(state.handoff)) return str(state.handoff.text) ? short(str(state.handoff.text)) : t('flowModel.personTakesOver')
  return null
}

export function flowModel(definition: unknown): FlowModel {
  const flow = isObject(definition) ? definition : {}
  const table = isObject(flow.states) ? flow.states : {}
  const start = typeof flow.start === 'string' ? flow.start : null
  const nodes: StateNode[] = []
  const edges: FlowEdge[] = []
  const deadEnds = new Set<string>()
  for (const [name, value] of Object.entries(table)) {
    const state = isObject(value) ? value : {}
    const kind = kindOf(state)
    const ports = portsOf(state)
    nodes.push({ name, kind, says: objectsIn(state.say).map(({ value: message }) => sayLine(message)), asks: asksOf(state, kind), ports })
    for (const port of ports) if (port.to !== null && Object.hasOwn(table, port.to)) edges.push({ id: `${name}|${port.way}`, from: name, way: port.way, to: port.to, kind: port.kind, label: port.label })
    const waits = state.on !== undefined || state.capture !== undefined || state.handoff !== undefined || state.agent !== undefined || state.branch !== undefined
    if (state.end !== true && state.next === undefined && !waits) deadEnds.add(name)
  }
  const reached = new Set<string>()
  const queue = start !== null && Object.hasOwn(table, start) ? [start] : []
  for (let at = 0; at < queue.length; at++) {
    const name = queue[at] as string
    if (reached.has(name)) continue
    reached.add(name)
    for (const edge of edges) if (edge.from === name && !reached.has(edge.to)) queue.push(edge.to)
  }
  const unreachable = new Set(nodes.map((node) => node.name).filter((name) => !reached.has(name)))
  return { start, nodes, edges, unreachable, deadEnds }
}
