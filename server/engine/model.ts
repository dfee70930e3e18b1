import { type Static, t } from 'elysia'
import type { Content } from '../protocol/widget-protocol.ts'

/** What variables and contact details hold. */
export const Scalar = t.Union([t.String(), t.Number(), t.Boolean()])
export type Scalar = Static<typeof Scalar>

const Button = t.Object({ id: t.String(), title: t.String() })
const ListSection = t.Object({
  title: t.Optional(t.String()),
  rows: t.Array(t.Object({ id: t.String(), title: t.String(), description: t.Optional(t.String()) })),
})

/** A message the visitor can answer by picking: the `buttons` and `list` kinds of `Content`. */
export const InteractiveContent = t.Union([
  t.Object({ kind: t.Literal('buttons'), text: t.String(), buttons: t.Array(Button) }),
  t.Object({ kind: t.Literal('list'), text: t.String(), button: t.String(), sections: t.Array(ListSection) }),
])
export type InteractiveContent = Extract<Content, { kind: 'buttons' | 'list' }>

/**
 * A conversation's place in its flow, stored as JSON between inputs. The engine never
 * mutates one; it returns a new one.
 */
export const ConversationState = t.Object({
  /** The state the bot is in (where it waits, handed off, or ended). */
  state: t.String(),
  status: t.Union([t.Literal('bot'), t.Literal('handoff'), t.Literal('closed')]),
  /**
   * What the bot waits for: a transition of `on`, a `capture` value, or the LLM agent.
   * null when it waits for nothing (handed off or closed).
   */
  waiting: t.Union([t.Literal('on'), t.Literal('capture'), t.Literal('agent'), t.Null()]),
  variables: t.Record(t.String(), Scalar),
  /**
   * The buttons and list messages said since the bot last waited, as sent (templates
   * filled): their titles count as replies when typed, and the last is shown again after
   * input the bot did not understand.
   */
  interactive: t.Array(InteractiveContent),
  /** Visitor messages the LLM agent has been given in the current agent state (for `max_turns`). */
  agent_turns: t.Optional(t.Integer({ minimum: 0 })),
})
export type ConversationState = Static<typeof ConversationState>

export const EngineInput = t.Union([
  /**
 * A new conversation: enter `flow.start`. (A text or reply marked `opening` is the visitor's
 * message that opened the conversation: see runEngine.)
 */
  t.Object({ kind: t.Literal('start') }),
  t.Object({ kind: t.Literal('text'), text: t.String(), opening: t.Optional(t.Literal(true)) }),
  t.Object({
    kind: t.Literal('reply'),
    reply_to: t.Union([t.Literal('button'), t.Literal('row')]),
    id: t.String(),
    title: t.String(),
    opening: t.Optional(t.Literal(true)),
  }),
  /** A person hands the conversation back to the bot. */
  t.Object({ kind: t.Literal('resume') }),
  /**
   * The LLM agent of the current agent state called one of its exits (by index), with the
   * values it captured for the exit's variables.
   */
  t.Object({ kind: t.Literal('agent_exit'), exit: t.Integer({ minimum: 0 }), values: t.Record(t.String(), Scalar) }),
  /** The LLM agent could not answer (the model unreachable or failing after retries). */
  t.Object({ kind: t.Literal('agent_failed') }),
])
export type EngineInput = Static<typeof EngineInput>

export interface EngineContext {
  /** Contact details, for `{{contact.KEY}}`. */
  contact: Record<string, Scalar>
  /** ISO 3166 alpha-2 country for phone numbers typed without a country code. */
  defaultCountry?: string
  /** The turn's time (milliseconds since the epoch), for `branch` entries on opening hours; without it they never hold. */
  now?: number
  /** The conversation's labels as compared (labels/label-key.ts), for `branch` entries on a label; none without it. */
  labels?: readonly string[]
  /** Whether the turn falls within the chatbot's business hours (server/business-hours/); without it, within (a chatbot without hours is always open). */
  withinBusinessHours?: boolean
  /** What a handoff says outside business hours, instead of its own text (the chatbot's; DEFAULT_CLOSED_TEXT without it). */
  closedText?: string | null
}

export type CaptureKind = 'text' | 'email' | 'phone' | 'number'

/** Why a conversation was closed. */
export type CloseReason =
  /** It reached a state with `end: true`. */
  | 'end'
  /** A `next` chain came back to a state it had already entered without waiting. */
  | 'loop'
  /** The conversation's state, or a `next`/`to`/`start` target, is not in the flow. */
  | 'missing_state'
  /** A state with no way out (no next, end, on, capture, handoff or agent). */
  | 'no_way_out'

/** What happened, for the adapter to act on (store, notify agents, update status). */
export type EngineEvent =
  | { type: 'captured'; var: string; value: Scalar }
  /** A capture refused the value; the bot asked again. */
  | { type: 'capture_rejected'; state: string; var: string; as: CaptureKind }
  /** No transition matched; the bot said the fallback. */
  | { type: 'unmatched'; state: string }
  /** The conversation went to a person; the bot stays silent until `resume`. */
  | { type: 'handoff'; state: string; outside_hours?: true }
  /** A person handed the conversation back; the bot entered `state`. */
  | { type: 'resumed'; state: string }
  /** The bot entered an `agent` state: the LLM agent answers from now on. */
  | { type: 'agent'; state: string }
  /**
   * The engine pauses here: the LLM agent must answer the visitor's input in `state` (a run
   * outside the engine, which resumes it with `agent_exit` or `agent_failed` when it ends the
   * state, or leaves it waiting after answering in text).
   */
  | { type: 'agent_run'; state: string }
  /** The agent took an exit; `captured` names the variables it set. */
  | { type: 'agent_exit'; state: string; to: string; captured: string[] }
  /** The agent state reached `max_turns`; the bot went to `on_limit`. */
  | { type: 'agent_limit'; state: string }
  /** The agent failed; the bot went to `on_error`, or apologised and handed off. */
  | { type: 'agent_failed'; state: string }
  | { type: 'closed'; state: string; reason: CloseReason }
  /** The bot entered a state with `labels`: the conversation gains `add` and loses `remove` (names as the flow wrote them). */
  | { type: 'labelled'; state: string; add: string[]; remove: string[] }

/**
 * One move from state to state, named by the way it took: `start`, `next`, `on/2`,
 * `branch/1`, `handoff/resume`, `agent/exits/0`, `agent/on_limit`, `agent/on_error` (the
 * pointer of the `to` under the state, without `/to`). What the flow builder counts per edge.
 */
export interface EngineStep {
  /** null for `start`. */
  from: string | null
  way: string
  to: string
}

export interface EngineResult {
  state: ConversationState
  /** Every state entered in this call, in order, with the way in. */
  steps: EngineStep[]
  /** The bot's messages, in order. */
  messages: Content[]
  events: EngineEvent[]
}
