import { createHash } from 'node:crypto'
import { LIMITS } from './cloud-api-limits.ts'

/**
 * The id a list row carries at the provider. Parley's ids may be 256 characters, the
 * provider's row ids 200: a longer one is sent as a digest, and a pick of it is traced back
 * through the message it answers (see `offeredPick`).
 */
export function providerRowId(id: string): string {
  return id.length <= LIMITS.rowId ? id : `~${createHash('sha256').update(id).digest('hex').slice(0, 48)}`
}

export interface Offer {
  reply_to: 'button' | 'row'
  id: string
  title: string
}

type Offered =
  | { kind: 'buttons'; buttons: { id: string; title: string }[] }
  | { kind: 'list'; sections: { rows: { id: string; title: string }[] }[] }

/**
 * What a user picked, read against the Parley message they answered: its buttons stay
 * buttons even when they were shown as a list (more than 3), and a digest id is the row it
 * stands for. Null when that message offered nothing with this id.
 */
export function offeredPick(offered: Offered, providerId: string): Offer | null {
  if (offered.kind === 'buttons') {
    const button = offered.buttons.find(({ id }) => id === providerId || providerRowId(id) === providerId)
    return button ? { reply_to: 'button', id: button.id, title: button.title } : null
  }
  for (const section of offered.sections) {
    const row = section.rows.find(({ id }) => id === providerId || providerRowId(id) === providerId)
    if (row) return { reply_to: 'row', id: row.id, title: row.title }
  }
  return null
}
