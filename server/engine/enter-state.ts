import type { ConversationFlow, State } from '../flow-language/conversation-flow-schema.ts'
import type { Content } from '../protocol/widget-protocol.ts'
import { labelKey } from '../labels/label-key.ts'
import { pickBranch } from './pick-branch.ts'
import type { CloseReason, ConversationState, EngineContext, EngineEvent, EngineStep, InteractiveContent, Scalar } from './model.ts'
import { renderSay } from './render-say.ts'
import { renderTemplate, type TemplateValues } from './render-template.ts'

/** What a handoff outside business hours says when the chatbot has no text of its own. */
export const DEFAULT_CLOSED_TEXT = "We're away right now, so nobody can answer here shortly. Leave your e-mail address and we'll answer you there."

/** What one call of the engine accumulates while it runs. */
export interface Run {
  flow: ConversationFlow
  context: EngineContext
  /** The conversation's labels as compared, with what this run's states set and took off. */
  labels: Set<string>
  variables: Record<string, Scalar>
  messages: Content[]
  events: EngineEvent[]
  steps: EngineStep[]
}

/**
 * Enters a state by `way` from `from`: says its messages, then follows `next` (or the first
 * `branch` entry that holds) at once until a state that waits, ends, hands off or has no way
 * out. Entering one state twice without waiting can only repeat for ever (a chain is fixed:
 * nothing changes a variable on the way), so that closes the conversation instead; the
 * validator refuses such flows, this is the guard for one that slipped through.
 */
export function enterState(run: Run, name: string, from: string | null, way: string): ConversationState {
  const entered = new Set<string>()
  const interactive: InteractiveContent[] = []
  let current = name
  run.steps.push({ from, way, to: name })
  for (;;) {
    const state = stateNamed(run.flow, current)
    if (!state) return closed(run, current, 'missing_state', interactive)
    if (entered.has(current)) return closed(run, current, 'loop', interactive)
    entered.add(current)
    for (const message of state.say ?? []) {
      const content = renderSay(message, templateValues(run))
      if (!content) continue
      run.messages.push(content)
      // A copy: the state must not change if a channel later decorates the message it sent.
      if (content.kind === 'buttons' || content.kind === 'list') interactive.push(structuredClone(content))
    }
    if (state.labels) label(run, current, state.labels)
    if (state.branch) {
      const picked = pickBranch(state.branch, run.variables, run.context.contact, run.context.now, {
        labels: run.labels,
        withinBusinessHours: run.context.withinBusinessHours ?? true,
      })
      if (!picked) return closed(run, current, 'no_way_out', interactive)
      run.steps.push({ from: current, way: `branch/${picked.index}`, to: picked.to })
      current = picked.to
      continue
    }
    // A capture's `next` is where it goes once it has its value, not a way on at once.
    if (state.next === undefined || state.capture) return settle(run, current, state, interactive)
    run.steps.push({ from: current, way: 'next', to: state.next })
    current = state.next
  }
}

/** A state's `labels`: the run's set changes at once (a branch after it sees it), and the adapter is told to store it. */
function label(run: Run, name: string, labels: NonNullable<State['labels']>): void {
  const add = labels.add ?? []
  const remove = labels.remove ?? []
  for (const label of remove) run.labels.delete(labelKey(label))
  for (const label of add) run.labels.add(labelKey(label))
  run.events.push({ type: 'labelled', state: name, add: [...add], remove: [...remove] })
}

/** The state of that name, never something inherited from Object.prototype. */
export function stateNamed(flow: ConversationFlow, name: string): State | undefined {
  return Object.hasOwn(flow.states, name) ? flow.states[name] : undefined
}

/** Says `text` (templates filled) unless it comes out blank. */
export function sayText(run: Run, text: string): void {
  const filled = renderTemplate(text, templateValues(run))
  if (filled.trim() !== '') run.messages.push({ kind: 'text', text: filled })
}

function templateValues(run: Run): TemplateValues {
  return { variables: run.variables, contact: run.context.contact }
}

export function closed(run: Run, state: string, reason: CloseReason, interactive: InteractiveContent[] = []): ConversationState {
  run.events.push({ type: 'closed', state, reason })
  return conversationState(run, state, 'closed', null, interactive)
}

/** The state to store: where the bot stopped and what it waits for. */
export function conversationState(
  run: Run,
  state: string,
  status: ConversationState['status'],
  waiting: ConversationState['waiting'],
  interactive: InteractiveContent[],
): ConversationState {
  return { state, status, waiting, variables: run.variables, interactive }
}

/** The way out of a state that does not go on at once. */
function settle(run: Run, name: string, state: State, interactive: InteractiveContent[]): ConversationState {
  if (state.end) return closed(run, name, 'end', interactive)
  if (state.handoff) {
    // Outside business hours nobody answers shortly: the handoff says so instead of its own promise.
    if (run.context.withinBusinessHours === false) {
      sayText(run, run.context.closedText ?? DEFAULT_CLOSED_TEXT)
      run.events.push({ type: 'handoff', state: name, outside_hours: true })
      return conversationState(run, name, 'handoff', null, interactive)
    }
    if (state.handoff.text !== undefined) sayText(run, state.handoff.text)
    run.events.push({ type: 'handoff', state: name })
    return conversationState(run, name, 'handoff', null, interactive)
  }
  if (state.agent) {
    run.events.push({ type: 'agent', state: name })
    return conversationState(run, name, 'bot', 'agent', interactive)
  }
  if (state.capture) return conversationState(run, name, 'bot', 'capture', interactive)
  if (state.on) return conversationState(run, name, 'bot', 'on', interactive)
  return closed(run, name, 'no_way_out', interactive)
}
