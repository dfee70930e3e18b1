import { unprocessable } from '../http/api-error.ts'
import type { FlowService } from '../flows/service.ts'
import type { Clock } from '../support/clock.ts'
import type { FlowInsights, InsightsQuery } from './model.ts'
import type { StepStore } from './step-store.ts'

const DAY_MS = 24 * 60 * 60 * 1000
export const DEFAULT_PERIOD_DAYS = 30

export type InsightsService = ReturnType<typeof insightsService>

/**
 * What real conversations did in a published version of a flow over a period: how often each
 * way was taken, and per state how often it was entered, left, and where conversations
 * stopped, went to a person, or saw the LLM agent fail. Counted from flow_steps, which the
 * turns write.
 */
export function insightsService(flows: Pick<FlowService, 'get' | 'version'>, store: StepStore, now: Clock) {
  return {
    async of(workspaceId: string, chatbotId: string, flowId: string, query: InsightsQuery): Promise<FlowInsights> {
      const flow = await flows.get(workspaceId, chatbotId, flowId)
      if (flow.type !== 'conversation') throw unprocessable('not_a_conversation_flow', 'only conversation flows have states to count')
      const until = query.until ? new Date(query.until).toISOString() : now()
      const since = query.since ? new Date(query.since).toISOString() : new Date(Date.parse(until) - DEFAULT_PERIOD_DAYS * DAY_MS).toISOString()
      if (since >= until) throw unprocessable('invalid_period', 'since must be before until', [{ path: '/since', code: 'invalid_value', message: 'must be before until' }])
      const version = query.version ?? flow.published_version
      if (version === null) return { version: null, since, until, started: 0, states: [], ways: [] }
      // Another version than the live one must exist (404 otherwise), as GET .../versions/{n} says.
      if (query.version !== undefined) await flows.version(workspaceId, chatbotId, flowId, version)
      const counted = summed(store.counts(flowId, version, since, until))
      const reached = new Map(store.conversationsPerState(flowId, version, since, until).map((row) => [row.state, row.conversations]))
      for (const counts of counted.states) counts.conversations = reached.get(counts.state) ?? 0
      return { version, since, until, ...counted }
    },
  }
}

function summed(rows: ReturnType<StepStore['counts']>): Pick<FlowInsights, 'started' | 'states' | 'ways'> {
  const states = new Map<string, FlowInsights['states'][number]>()
  const of = (state: string) => {
    let counts = states.get(state)
    if (!counts) {
      counts = { state, entered: 0, conversations: 0, left: 0, stopped: 0, handoffs: 0, agent_failures: 0 }
      states.set(state, counts)
    }
    return counts
  }
  const ways: FlowInsights['ways'] = []
  let started = 0
  for (const row of rows) {
    if (row.to_state === null) {
      if (row.from_state === null) continue
      if (row.way === 'handoff') of(row.from_state).handoffs += row.times
      if (row.way === 'agent_failed') of(row.from_state).agent_failures += row.times
      continue
    }
    ways.push({ from: row.from_state, way: row.way, to: row.to_state, times: row.times, conversations: row.conversations })
    of(row.to_state).entered += row.times
    if (row.way === 'start') started += row.times
    if (row.from_state !== null) of(row.from_state).left += row.times
  }
  // A step that left before the period and came back within it can make left exceed entered.
  for (const counts of states.values()) counts.stopped = Math.max(0, counts.entered - counts.left)
  return { started, states: [...states.values()], ways }
}
