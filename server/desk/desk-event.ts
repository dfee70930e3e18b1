import type { DeskEvent } from './model.ts'
import type { EventRow } from './store.ts'

/** A stored timeline event as the desk shows it: on the timeline, and on the live feed. */
export function deskEvent(row: EventRow): DeskEvent {
  return {
    id: row.id,
    kind: row.kind as DeskEvent['kind'],
    at: row.at,
    actor: row.actor_id ? { id: row.actor_id, display_name: row.actor_name ?? '' } : null,
    data: JSON.parse(row.data) as Record<string, unknown>,
  }
}
