import type { TurnWriter } from '../conversations/service.ts'
import type { StepRow, StepStore } from './step-store.ts'

/**
 * Writes what a turn did in its flow with the turn itself (one unit, so a rolled-back turn
 * leaves no count behind): each state the bot entered with the way in, and each handoff and
 * agent failure, under the flow version the conversation runs.
 */
export function stepRecorder(store: StepStore): TurnWriter {
  return {
    writesFor(turn) {
      const { conversation } = turn
      if (!conversation.flow_id || conversation.flow_version === null) return null
      const base = { conversation_id: conversation.id, flow_id: conversation.flow_id, flow_version: conversation.flow_version, at: turn.at }
      const rows: StepRow[] = turn.engineSteps.map((step) => ({ ...base, from_state: step.from, way: step.way, to_state: step.to }))
      for (const event of turn.engineEvents) {
        if (event.type === 'handoff' || event.type === 'agent_failed') rows.push({ ...base, from_state: event.state, way: event.type, to_state: null })
      }
      if (rows.length === 0) return null
      return () => {
        for (const row of rows) store.insert(row)
      }
    },
  }
}
