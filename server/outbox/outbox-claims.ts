import type { AttemptRecord, DeliveryKind, StoredDelivery } from './outbox-store.ts'

/** Claimed deliveries still being sent, by seq: a claim skips them. */
export interface BusyDeliveries {
  has(seq: number): boolean
  keys(): Iterable<number>
  readonly size: number
}

/**
 * What the outbox worker reads and writes (server/outbox/outbox-worker.ts): claiming what is
 * due, recording each attempt, dropping an integration's deliveries and pruning. Behind the
 * store seam (docs/architecture.md): SQLite (sqlite-outbox-claims.ts) and PostgreSQL
 * (postgres-outbox-claims.ts), every write in a unit. Deliveries are added by the turn
 * writers through outbox-store.ts, inside the turn.
 */
export interface OutboxClaims {
  /** When the worker must look again: the earliest time a delivery at the head of its order falls due. */
  nextDueAt(kind: DeliveryKind): Promise<string | null>
  /**
   * Takes up to `limit` due deliveries in due order, skipping `busy` ones: each counts an
   * attempt and is leased until `leaseUntil`, so that a process that dies while sending leaves
   * it to be sent again once the lease runs out. Two claimers at once never take the same one.
   */
  claimDue(kind: DeliveryKind, now: string, limit: number, leaseUntil: string, busy: BusyDeliveries): Promise<StoredDelivery[]>
  /** Recorded even when the delivery was dropped meanwhile: the receiver did get it. The next of its key falls due. */
  delivered(seq: number, attempt: AttemptRecord, taken?: { receipt: string | null; note: string | null }): Promise<void>
  retryAt(seq: number, next: string, attempt: AttemptRecord): Promise<void>
  /** Failed for good; the next of its key falls due. */
  fail(seq: number, attempt: AttemptRecord): Promise<void>
  /** Drops every pending delivery of an integration (deleted or switched off), waiting ones too; answers how many. */
  failPendingOfIntegration(integrationId: string, at: string, reason: string): Promise<number>
  /** Forgets finished deliveries of a kind older than `before`; answers how many. */
  prune(kind: DeliveryKind, before: string): Promise<number>
}
