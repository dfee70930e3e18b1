import { type Static, t } from 'elysia'

export const InsightsQuery = t.Object({
  version: t.Optional(t.Integer({ minimum: 1, description: 'a published version; default: the live one' })),
  since: t.Optional(t.String({ format: 'date-time', description: 'from this instant (inclusive); default: 30 days before `until`' })),
  until: t.Optional(t.String({ format: 'date-time', description: 'to this instant (exclusive); default: now' })),
})
export type InsightsQuery = Static<typeof InsightsQuery>

const StateCounts = t.Object({
  state: t.String(),
  entered: t.Integer({ description: 'times a conversation entered the state (passing through included)' }),
  conversations: t.Integer({ description: 'distinct conversations that entered it' }),
  left: t.Integer({ description: 'times a conversation went on from it to another state' }),
  stopped: t.Integer({ description: 'entered but not left within the period: still there, ended there, or gone quiet (drop-off)' }),
  handoffs: t.Integer({ description: 'times the conversation went to a person here (a handoff state, or an agent that failed without on_error)' }),
  agent_failures: t.Integer({ description: 'times the LLM agent of this state failed (model unreachable or failing after retries)' }),
})

const WayCount = t.Object({
  from: t.Union([t.String(), t.Null()], { description: 'null for the start' }),
  way: t.String({ description: 'start, next, on/N, branch/N, handoff/resume, agent/exits/N, agent/on_limit or agent/on_error: the pointer of the `to` under the state, without /to' }),
  to: t.String(),
  times: t.Integer(),
  conversations: t.Integer(),
})

export const FlowInsights = t.Object({
  version: t.Union([t.Integer(), t.Null()], { description: 'the version counted; null for a flow never published' }),
  since: t.String(),
  until: t.String(),
  started: t.Integer({ description: 'conversations that started in this version in the period (a restart after the end counts again)' }),
  states: t.Array(StateCounts),
  ways: t.Array(WayCount),
})
export type FlowInsights = Static<typeof FlowInsights>
