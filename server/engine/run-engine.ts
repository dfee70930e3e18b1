import { type ConversationFlow, DEFAULT_FALLBACK, type Transition } from '../flow-language/conversation-flow-schema.ts'
import { answerInAgentState } from './agent-state.ts'
import { checkCapture } from './check-capture.ts'
import { closed, enterState, type Run, sayText, stateNamed } from './enter-state.ts'
import type { ConversationState, EngineContext, EngineInput, EngineResult, Scalar } from './model.ts'
import { pickTransition } from './pick-transition.ts'
import { type Answer, readAnswer } from './read-answer.ts'

/**
 * The conversation engine: given a published flow, a conversation's state (null for none
 * yet) and one input, the new state, the bot's messages and what happened. Pure: no I/O,
 * no clock, no randomness; the same arguments always give the same result, and the given
 * state is never changed. docs/conversation-engine.md tells how a conversation runs.
 */
export function runEngine(flow: ConversationFlow, state: ConversationState | null, input: EngineInput, context: EngineContext): EngineResult {
  if (input.kind === 'start' || state === null) {
    // Any first input opens the conversation: it is not an answer to anything said yet.
    const run = newRun(flow, context, initialVariables(flow))
    return finish(run, enterState(run, flow.start, null, 'start'))
  }
  if (state.status === 'closed') return quiet(state)
  if (state.status === 'handoff') {
    if (input.kind !== 'resume') return quiet(state)
    const run = newRun(flow, context, state.variables)
    const target = stateNamed(flow, state.state)?.handoff?.resume ?? flow.start
    const resumed = enterState(run, target, state.state, 'handoff/resume')
    run.events.unshift({ type: 'resumed', state: target })
    return finish(run, resumed)
  }
  if (input.kind === 'resume') return quiet(state)

  const run = newRun(flow, context, state.variables)
  const current = stateNamed(flow, state.state)
  if (!current) return finish(run, closed(run, state.state, 'missing_state'))
  if (state.waiting === 'agent' && current.agent) return finish(run, answerInAgentState(run, state, current.agent, input))
  if (input.kind === 'agent_exit' || input.kind === 'agent_failed') return quiet(state)
  const answer = readAnswer(input, state.interactive)
  if (input.opening) return finish(run, opened(run, state, current.on, answer))
  if (state.waiting === 'capture' && current.capture) {
    const { var: name, as, retry } = current.capture
    const checked = checkCapture(as, answer.text, context.defaultCountry)
    if (!checked.ok) {
      sayText(run, retry ?? checked.defaultRetry)
      reshow(run, state)
      run.events.push({ type: 'capture_rejected', state: state.state, var: name, as })
      return finish(run, state)
    }
    run.variables = { ...run.variables, [name]: checked.value }
    run.events.push({ type: 'captured', var: name, value: checked.value })
    if (current.next === undefined) return finish(run, closed(run, state.state, 'no_way_out'))
    return finish(run, intoAgentAnswering(run, enterState(run, current.next, state.state, 'next')))
  }
  if (state.waiting === 'on' && current.on) return answerOn(run, state, current.on, answer)
  // Waiting for something the state no longer offers: only a changed flow gets here.
  return finish(run, closed(run, state.state, 'no_way_out'))
}

function answerOn(run: Run, state: ConversationState, on: Transition[], answer: Answer): EngineResult {
  const index = pickTransition(on, answer)
  const transition = on[index]
  if (transition) return finish(run, intoAgentAnswering(run, enterState(run, transition.to, state.state, `on/${index}`)))
  sayText(run, run.flow.fallback ?? DEFAULT_FALLBACK)
  reshow(run, state)
  run.events.push({ type: 'unmatched', state: state.state })
  return finish(run, state)
}

/**
 * The visitor's message that opened the conversation, read after the flow's first messages:
 * nothing had been asked yet, so it counts only when it says something the first state
 * listens for (a button, row, match or equals transition: "pricing" to a menu offering
 * Pricing). Otherwise it is not an answer: no fallback, no capture, no catch-all transition.
 */
function opened(run: Run, state: ConversationState, on: Transition[] | undefined, answer: Answer): ConversationState {
  if (state.waiting !== 'on' || !on) return state
  const index = pickTransition(on, answer, (candidate) => Object.keys(candidate).length > 1)
  const transition = on[index]
  return transition ? intoAgentAnswering(run, enterState(run, transition.to, state.state, `on/${index}`)) : state
}

/**
 * A visitor's message that leads into an agent state is the agent's first to answer ("where
 * is my invoice?" picked the billing agent), so it counts as the state's first turn.
 */
function intoAgentAnswering(run: Run, entered: ConversationState): ConversationState {
  if (entered.waiting !== 'agent' || entered.status !== 'bot') return entered
  run.events.push({ type: 'agent_run', state: entered.state })
  return { ...entered, agent_turns: 1 }
}

/** Shows the last buttons or list again, so the visitor can still pick after a miss. */
function reshow(run: Run, state: ConversationState): void {
  const last = state.interactive.at(-1)
  if (last) run.messages.push(structuredClone(last))
}

/** Declared variables with a default; the others stay unset (a template shows them as ""). */
function initialVariables(flow: ConversationFlow): Record<string, Scalar> {
  // fromEntries defines own properties, so even a variable named __proto__ is a plain value.
  return Object.fromEntries(
    Object.entries(flow.variables ?? {}).flatMap(([name, declared]) => (declared.default === undefined ? [] : [[name, declared.default]])),
  )
}

function newRun(flow: ConversationFlow, context: EngineContext, variables: Record<string, Scalar>): Run {
  return { flow, context, labels: new Set(context.labels), variables: { ...variables }, messages: [], events: [], steps: [] }
}

function finish(run: Run, state: ConversationState): EngineResult {
  return { state, messages: run.messages, events: run.events, steps: run.steps }
}

function quiet(state: ConversationState): EngineResult {
  return { state, messages: [], events: [], steps: [] }
}
