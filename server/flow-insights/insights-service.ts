import { unprocessable } from '../http/api-error.ts'
import type { FlowService } from '../flows/service.ts'
import type { Clock } from '../support/clock.ts'
import type { FlowInsights, InsightsQuery } from './model.ts'
import type { StepStore } from './step-store.ts'

const DAY_MS = 24 * 60 * 60 * 1000
export const DEFAULT_PERIOD_DAYS = 30
/** A period is counted within years 1970 to 9999: stored times are ISO texts of four-digit years, compared as text. */
const EARLIEST_MS = Date.UTC(1970, 0, 1)
const LATEST_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999)

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
      const until = query.until ? instantOf(query.until, 'until') : now()
      const since = query.since ? instantOf(query.since, 'since') : new Date(Math.max(EARLIEST_MS, Date.parse(until) - DEFAULT_PERIOD_DAYS * DAY_MS)).toISOString()
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

/** A date-time of the query as the ISO text stored times are compared with; 422 naming the field outside 1970-9999. */
function instantOf(text: string, field: 'since' | 'until'): string {
  const ms = Date.parse(text)
  if (!(ms >= EARLIEST_MS && ms <= LATEST_MS)) {
    throw unprocessable('invalid_period', `${field} must be a time from 1970 to 9999`, [{ path: `/${field}`, code: 'out_of_range', message: 'must be from 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z' }])
  }
  return new Date(ms).toISOString()
}
