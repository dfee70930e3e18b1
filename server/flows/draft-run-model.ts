import { type Static, t } from 'elysia'
import { ConversationState, Scalar } from '../engine/model.ts'
import { Content } from '../protocol/widget-protocol.ts'

/** What the tester sends, as a visitor or a person would: the engine's inputs of a chat. */
const DraftInput = t.Union(
  [
    t.Object({ kind: t.Literal('start') }, { additionalProperties: false }),
    t.Object({ kind: t.Literal('text'), text: t.String({ minLength: 1, maxLength: 4096 }) }, { additionalProperties: false }),
    t.Object(
      {
        kind: t.Literal('reply'),
        reply_to: t.Union([t.Literal('button'), t.Literal('row')]),
        id: t.String({ minLength: 1, maxLength: 256 }),
        title: t.String({ maxLength: 256 }),
      },
      { additionalProperties: false },
    ),
    t.Object({ kind: t.Literal('resume') }, { additionalProperties: false }),
  ],
  { description: '`start` opens a new test conversation (state is ignored); `text` and `reply` are the visitor\'s; `resume` hands a handed-off test conversation back to the bot' },
)

export const DraftRun = t.Object(
  {
    flow: t.Optional(
      t.Object({}, { additionalProperties: true, description: 'the definition to run; without it, the flow\'s saved working copy' }),
    ),
    state: t.Union([ConversationState, t.Null()], { description: 'the state the previous run answered; null to start' }),
    input: DraftInput,
    contact: t.Optional(t.Record(t.String({ maxLength: 64 }), Scalar, { description: 'contact details for {{contact.KEY}}' })),
    history: t.Optional(
      t.Array(
        t.Object({ role: t.Union([t.Literal('visitor'), t.Literal('bot')]), text: t.String({ maxLength: 4096 }) }, { additionalProperties: false }),
        { maxItems: 200, description: 'the test chat so far, oldest first: what an LLM agent state is given as the conversation (nothing is stored to read it from)' },
      ),
    ),
  },
  { additionalProperties: false },
)
export type DraftRun = Static<typeof DraftRun>

export const DraftRunResult = t.Object({
  state: ConversationState,
  messages: t.Array(Content, { description: "the bot's messages, in order (an LLM agent's answer included)" }),
  events: t.Array(t.Object({ type: t.String() }, { additionalProperties: true }), {
    description: 'what happened (captured, unmatched, handoff, agent_run, agent_exit, agent_failed, closed ...)',
  }),
  steps: t.Array(t.Object({ from: t.Union([t.String(), t.Null()]), way: t.String(), to: t.String() }), {
    description: 'each state entered, with the way in (start, next, on/N, branch/N, agent/exits/N ...), as the flow builder highlights them',
  }),
  agent: t.Optional(
    t.Object({
      test: t.Literal(true, { description: 'a test run: nothing stored, no usage counted' }),
      state: t.String(),
      model: t.Union([t.String(), t.Null()], { description: 'the model asked; null when the chatbot has none set' }),
      outcome: t.Union([t.Literal('answer'), t.Literal('exit'), t.Literal('failed')]),
      reason: t.Optional(t.String({ description: 'why the run failed (the model unreachable, refused, ...)' })),
      tools: t.Array(t.String(), { description: 'the MCP tools it called, in order' }),
      total_tokens: t.Integer(),
    }, { description: 'present when an LLM agent state ran against the chatbot\'s model for this input' }),
  ),
})
export type DraftRunResult = Static<typeof DraftRunResult>
