import { type Static, t } from 'elysia'
import { MAX_MAX_TOKENS } from '../llm/answer-limits.ts'
import { NAME_REFUSED_CHARACTERS } from '../support/name-text.ts'

/**
 * The `conversation` flow definition, version 1: the exact truth behind
 * docs/flows.md, served as JSON Schema at /api/dev/v1/schemas/conversation-flow.json.
 * Rules that span fields (references, ways out, cycles, templates) are the validator's.
 */

export const STATE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_-]{0,63}$'
export const VARIABLE_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$'

export const StateName = t.String({
  pattern: STATE_NAME_PATTERN,
  description: 'a state name: a letter or _, then letters, digits, _ or -; at most 64',
})
export const VariableName = t.String({
  pattern: VARIABLE_NAME_PATTERN,
  description: 'a variable name: a letter or _, then letters, digits or _; at most 64',
})

const ReplyId = t.String({ minLength: 1, maxLength: 256, description: 'sent back when the visitor picks it' })
const Title = t.String({ minLength: 1, maxLength: 256 })

export const TextMessage = t.Object({ text: t.String({ minLength: 1 }) }, { additionalProperties: false })

export const ButtonsMessage = t.Object(
  {
    text: t.String({ minLength: 1 }),
    buttons: t.Array(t.Object({ id: ReplyId, title: Title }, { additionalProperties: false }), { minItems: 1 }),
  },
  { additionalProperties: false },
)

export const ListMessage = t.Object(
  {
    text: t.String({ minLength: 1 }),
    button: t.String({ minLength: 1, description: 'label of the button that opens the list' }),
    sections: t.Array(
      t.Object(
        {
          title: t.Optional(t.String()),
          rows: t.Array(
            t.Object(
              { id: ReplyId, title: Title, description: t.Optional(t.String()) },
              { additionalProperties: false },
            ),
            { minItems: 1 },
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
)

export const MediaMessage = t.Object(
  {
    media: t.Object(
      {
        type: t.Union([t.Literal('image'), t.Literal('video'), t.Literal('audio'), t.Literal('file')]),
        url: t.String({ pattern: '^https?://', description: 'absolute http(s) URL' }),
        caption: t.Optional(t.String()),
        filename: t.Optional(t.String()),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

export const MetaFlowMessage = t.Object(
  {
    meta_flow: t.Object(
      {
        flow_id: t.String({ minLength: 1, description: 'a `meta` flow of the same chatbot' }),
        cta: t.String({ minLength: 1, description: 'label of the button that opens it' }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
)

export const SayMessage = t.Union([TextMessage, ButtonsMessage, ListMessage, MediaMessage, MetaFlowMessage])

const To = { to: StateName }

export const Transition = t.Union([
  t.Object({ button: ReplyId, ...To }, { additionalProperties: false }),
  t.Object({ row: ReplyId, ...To }, { additionalProperties: false }),
  t.Object(
    { match: t.String({ minLength: 1, description: 'a regular expression; a leading (?i) ignores case' }), ...To },
    { additionalProperties: false },
  ),
  t.Object({ equals: t.String({ description: 'compared trimmed, ignoring case' }), ...To }, { additionalProperties: false }),
  t.Object({ ...To }, { additionalProperties: false, description: 'always: taken when nothing before it matched' }),
])

export const Capture = t.Object(
  {
    var: VariableName,
    as: t.Union([t.Literal('text'), t.Literal('email'), t.Literal('phone'), t.Literal('number')]),
    retry: t.Optional(t.String({ minLength: 1, description: 'said when the value does not fit `as`; then it waits again' })),
  },
  { additionalProperties: false },
)

export const Handoff = t.Object(
  {
    text: t.Optional(t.String({ minLength: 1, description: 'said as the conversation goes to a person' })),
    resume: t.Optional(
      t.String({ pattern: STATE_NAME_PATTERN, description: 'state the bot resumes in when handed back; default: start' }),
    ),
  },
  { additionalProperties: false },
)

/** The defaults of an agent state's limits, as docs/agents.md states them. */
export const AGENT_DEFAULTS = { max_steps: 8, history: 20 } as const

export const Agent = t.Object(
  {
    instructions: t.String({ minLength: 1, description: 'what the LLM agent is for; templates ({{var}}, {{contact.KEY}}) are filled' }),
    model: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "overrides the chatbot's llm.model in this state" })),
    temperature: t.Optional(t.Number({ minimum: 0, maximum: 2, description: "overrides the chatbot's llm.temperature in this state" })),
    max_tokens: t.Optional(t.Integer({ minimum: 1, maximum: MAX_MAX_TOKENS, description: "overrides the chatbot's llm.max_tokens in this state" })),
    tools: t.Optional(
      t.Array(
        t.Object(
          {
            integration_id: t.String({ minLength: 1, description: 'an mcp integration of the same chatbot' }),
            allow: t.Optional(t.Array(t.String({ minLength: 1 }), { description: 'tool names; absent means all' })),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    exits: t.Array(
      t.Object(
        {
          when: t.String({ minLength: 1, description: 'the condition the agent reports; offered to the model as a function' }),
          ...To,
          capture: t.Optional(
            t.Array(VariableName, { uniqueItems: true, description: 'declared variables the model fills when it takes this exit' }),
          ),
        },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
    max_steps: t.Optional(t.Integer({ minimum: 1, maximum: 32, description: `model and tool rounds per visitor message; default ${AGENT_DEFAULTS.max_steps}` })),
    max_turns: t.Optional(t.Integer({ minimum: 1, maximum: 1000, description: 'visitor messages answered in this state before on_limit' })),
    on_limit: t.Optional(t.String({ pattern: STATE_NAME_PATTERN, description: 'the state to go to after max_turns visitor messages' })),
    history: t.Optional(t.Integer({ minimum: 0, maximum: 200, description: `past messages given to the model; default ${AGENT_DEFAULTS.history}` })),
    on_error: t.Optional(
      t.String({
        pattern: STATE_NAME_PATTERN,
        description: 'the state to go to when the model is unreachable or keeps failing; without it the bot apologises and hands off',
      }),
    ),
  },
  { additionalProperties: false },
)

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

/** When the team is there: days of the week and a time span, in a time zone. */
export const OpeningHours = t.Object(
  {
    timezone: t.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone, such as Europe/Berlin' }),
    days: t.Array(t.Union(WEEKDAYS.map((day) => t.Literal(day))), { minItems: 1, uniqueItems: true }),
    from: t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, inclusive' }),
    until: t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description: 'HH:MM, exclusive; after from' }),
  },
  { additionalProperties: false, description: 'holds while the time, in the time zone, is on one of the days between from and until' },
)

/** A label named in a flow: as the workspace's label names (server/labels/), compared in any case. */
const labelName = (description: string) => t.String({ minLength: 1, maxLength: 40, pattern: `^[^${NAME_REFUSED_CHARACTERS}]*$`, description })
const LabelName = labelName("a label's name, compared whatever its case")

/**
 * One entry of `branch`: a condition on a variable or a contact detail, or none (the else,
 * which must come last). Which keys go together is the validator's to say (branch-rules.ts),
 * so a mistake is told as the field it is about.
 */
export const BranchRule = t.Object(
  {
    var: t.Optional(VariableName),
    contact: t.Optional(t.String({ pattern: '^[A-Za-z0-9_]{1,64}$', description: 'a contact detail key, as in {{contact.KEY}}' })),
    equals: t.Optional(t.Union([t.String(), t.Number(), t.Boolean()], { description: 'the value compared: texts trimmed, ignoring case' })),
    set: t.Optional(t.Boolean({ description: 'true: the value is set and not empty; false: it is not' })),
    hours: t.Optional(OpeningHours),
    label: t.Optional(labelName('holds when the conversation carries a label of this name (any case)')),
    business_hours: t.Optional(
      t.Boolean({ description: "true: holds within the chatbot's business hours (always, when it has none); false: outside them" }),
    ),
    ...To,
  },
  { additionalProperties: false },
)

export const State = t.Object(
  {
    say: t.Optional(t.Array(SayMessage)),
    next: t.Optional(StateName),
    branch: t.Optional(
      t.Array(BranchRule, {
        minItems: 1,
        description: 'go on at once to the first entry whose condition holds; the last entry is `{to}`, taken when none does',
      }),
    ),
    end: t.Optional(t.Literal(true)),
    on: t.Optional(t.Array(Transition, { minItems: 1 })),
    capture: t.Optional(Capture),
    handoff: t.Optional(Handoff),
    agent: t.Optional(Agent),
    labels: t.Optional(
      t.Object(
        {
          add: t.Optional(t.Array(LabelName, { minItems: 1, maxItems: 10, description: 'set on the conversation; a name the workspace has no label for makes one (grey)' })),
          remove: t.Optional(t.Array(LabelName, { minItems: 1, maxItems: 10, description: 'taken off the conversation' })),
        },
        { additionalProperties: false, description: 'labels the bot sets and takes off when it enters this state, before its way out' },
      ),
    ),
  },
  { additionalProperties: false },
)

/**
 * Where the console's flow builder draws each state. The engine never reads it; it is kept
 * with the definition so that a flow's drawing travels with it (versions, export, restore).
 */
export const FlowLayout = t.Object(
  {
    states: t.Optional(
      t.Record(
        t.String(),
        t.Object({ x: t.Number(), y: t.Number() }, { additionalProperties: false }),
        { description: 'state name → the top-left corner of its card on the canvas, in canvas pixels' },
      ),
    ),
  },
  { additionalProperties: false, description: "the flow builder's drawing; ignored by the engine" },
)

export const VariableDeclaration = t.Object(
  {
    type: t.Union([t.Literal('string'), t.Literal('number'), t.Literal('boolean')]),
    default: t.Optional(t.Union([t.String(), t.Number(), t.Boolean()])),
  },
  { additionalProperties: false },
)

export const ConversationFlow = t.Object(
  {
    version: t.Literal(1),
    start: StateName,
    // Names are keys here, so the key pattern makes the JSON Schema refuse names that
    // `{{var}}`, `capture.var` or a transition could never refer to.
    variables: t.Optional(t.Record(VariableName, VariableDeclaration, { additionalProperties: false })),
    fallback: t.Optional(t.String({ minLength: 1, description: 'reply to input no transition matches; default: "Sorry, I did not understand that."' })),
    states: t.Record(StateName, State, { minProperties: 1, additionalProperties: false }),
    layout: t.Optional(FlowLayout),
  },
  { additionalProperties: false, title: 'Parley conversation flow, version 1' },
)

export type ConversationFlow = Static<typeof ConversationFlow>
export type State = Static<typeof State>
export type SayMessage = Static<typeof SayMessage>
export type Transition = Static<typeof Transition>
export type Capture = Static<typeof Capture>
export type BranchRule = Static<typeof BranchRule>

export const DEFAULT_FALLBACK = 'Sorry, I did not understand that.'
