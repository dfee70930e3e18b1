import { settled } from '../db/settled.ts'
import type { OutboxClaims } from './outbox-claims.ts'
import type { OutboxStore } from './outbox-store.ts'

/** The worker's side of the outbox on SQLite: outbox-store.ts's statements, answered as the seam's promises. */
export function sqliteOutboxClaims(store: OutboxStore): OutboxClaims {
  return {
    nextDueAt: (kind) => settled(() => store.nextDueAt(kind)),
    claimDue: (kind, now, limit, leaseUntil, busy) => settled(() => store.claimDue(kind, now, limit, leaseUntil, busy)),
    delivered: (seq, attempt, taken) => settled(() => store.delivered(seq, attempt, taken)),
    retryAt: (seq, next, attempt) => settled(() => store.retryAt(seq, next, attempt)),
    fail: (seq, attempt) => settled(() => store.fail(seq, attempt)),
    failPendingOfIntegration: (integrationId, at, reason) => settled(() => store.failPendingOfIntegration(integrationId, at, reason)),
    prune: (kind, before) => settled(() => store.prune(kind, before)),
  }
}
