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
  },
  { additionalProperties: false },
)
export type DraftRun = Static<typeof DraftRun>

export const DraftRunResult = t.Object({
  state: ConversationState,
  messages: t.Array(Content, { description: "the bot's messages, in order" }),
  events: t.Array(t.Object({ type: t.String() }, { additionalProperties: true }), {
    description: 'what happened (captured, unmatched, handoff, agent_run, closed ...); an `agent_run` is where a live conversation would ask the LLM agent, which a draft run does not call',
  }),
})
export type DraftRunResult = Static<typeof DraftRunResult>
