import type { WriteBatcher } from '../db/write-batcher.ts'
import type { EventBus } from '../support/events.ts'
import type { Logger } from '../support/logger.ts'
import { isoAt, type OutboxTime, systemOutboxTime } from './outbox-time.ts'
import type { DeliveryKind, OutboxStore, StoredDelivery } from './outbox-store.ts'
import { type AttemptOutcome, judgeAttempt, type Verdict } from './retry-policy.ts'

/**
 * Where an integration's deliveries go now, read at every attempt (a new URL or secret
 * applies at once): the webhook URL and its signing secret, or the provider's API URL and
 * its access token.
 */
export type DeliveryTarget = { ok: true; url: string; secret: string } | { ok: false; reason: string }

/** One attempt at one delivery: where it goes, the secret it is sent with, its stable id and body. */
export interface DeliveryRequest {
  url: string
  /** Only ever used to sign or authorise, never logged. */
  secret: string
  id: string
  body: string
}

/** Sends one attempt of one kind of delivery and tells how it went; never throws for the receiver's sake. */
export type DeliverySender = (request: DeliveryRequest, shutdown: AbortSignal) => Promise<AttemptOutcome>

export interface OutboxTuning {
  time?: OutboxTime
  /** For the jitter of retry waits. */
  random?: () => number
  /** Deliveries sent at the same time, at most (one per ordering key). */
  concurrency?: number
  requestTimeoutMs?: number
  /** How long a shutdown waits for deliveries under way before cutting them short. */
  shutdownGraceMs?: number
  /** How long delivered and failed deliveries stay listed. */
  retentionMs?: number
}

export interface OutboxWorkerDeps extends OutboxTuning {
  store: OutboxStore
  batch: WriteBatcher
  /** The kind of delivery this worker sends (webhook unless told): it claims no other. */
  kind?: DeliveryKind
  send: DeliverySender
  target: (integrationId: string) => DeliveryTarget
  logger: Logger
  /** Told of each recorded attempt (the metrics count them). */
  events?: EventBus
}

export type OutboxWorker = ReturnType<typeof outboxWorker>

export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000
const LEASE_MARGIN_MS = 30_000
const LONGEST_SLEEP_MS = 5 * 60_000
const PAUSE_AFTER_ERROR_MS = 5_000
const FIRST_PRUNE_MS = 60_000
const PRUNE_EVERY_MS = 6 * 60 * 60_000

/**
 * Sends the outbox's due deliveries from inside the server process. Everything it needs is
 * in the table, so a new process carries on where the last one stopped; a delivery is marked
 * only after its attempt, so one cut off by a crash is sent again (at least once).
 *
 * Claims are made through the write batch and sending starts when that batch is committed:
 * the worker never sends a delivery whose turn might still be rolled back.
 */
export function outboxWorker(deps: OutboxWorkerDeps) {
  const { store, batch, send, target, logger } = deps
  const kind = deps.kind ?? 'webhook'
  const time = deps.time ?? systemOutboxTime
  const random = deps.random ?? Math.random
  const concurrency = deps.concurrency ?? 16
  const requestTimeoutMs = deps.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS
  const leaseMs = requestTimeoutMs + LEASE_MARGIN_MS
  const shutdownGraceMs = deps.shutdownGraceMs ?? 5_000
  const retentionMs = deps.retentionMs ?? 14 * 24 * 60 * 60_000

  /** Claimed deliveries, by seq: when they were claimed and whether sending has begun. */
  const busy = new Map<number, { claimedAt: number; sending: boolean }>()
  const running = new Set<Promise<void>>()
  const shutdown = new AbortController()
  let stopping = false
  let tickQueued = false
  let timer: unknown = null
  let pruneTimer: unknown = null

  function kick(): void {
    if (stopping || tickQueued) return
    tickQueued = true
    queueMicrotask(() => {
      tickQueued = false
      tick()
    })
  }

  /** Claims what is due (as many as there is room for), then sleeps until more falls due. */
  function tick(): void {
    if (stopping) return
    try {
      claimDue()
      schedule()
    } catch (error) {
      // The database failed (or is gone): look again later rather than never.
      logger.error('outbox worker failed', { error: String(error) })
      sleep(PAUSE_AFTER_ERROR_MS)
    }
  }

  /** Sending starts only once the claim is committed. */
  function claimDue(): void {
    const now = time.now()
    forgetLostClaims(now)
    const room = concurrency - busy.size
    // Looking costs a read; claiming costs a write transaction, so it is opened only when something is due.
    const next = store.nextDueAt(kind)
    if (room <= 0 || next === null || next > isoAt(now)) return
    let claimed: StoredDelivery[] = []
    batch.run(
      () => {
        claimed = store.claimDue(kind, isoAt(now), room, isoAt(now + leaseMs), busy)
      },
      () => {
        for (const row of claimed) launch(row)
      },
    )
    for (const row of claimed) busy.set(row.seq, { claimedAt: now, sending: false })
  }

  /** A claim whose batch never committed is forgotten once its lease is over, so the row can be claimed again. */
  function forgetLostClaims(now: number): void {
    for (const [seq, claim] of busy) if (!claim.sending && now - claim.claimedAt > leaseMs) busy.delete(seq)
  }

  /** Sleeps until the next delivery falls due; deliveries under way wake the worker when they end. */
  function schedule(): void {
    const next = store.nextDueAt(kind)
    if (next === null) return sleep(null)
    const wait = Date.parse(next) - time.now()
    if (wait <= 0 && busy.size > 0) return sleep(null)
    // Due but not claimed can only follow a failed claim: no busy loop, a short pause.
    sleep(wait <= 0 ? PAUSE_AFTER_ERROR_MS : Math.min(wait, LONGEST_SLEEP_MS))
  }

  /** Replaces the planned wake; null plans none. */
  function sleep(ms: number | null): void {
    if (timer !== null) time.clearTimeout(timer)
    timer = null
    if (ms === null || stopping) return
    timer = time.setTimeout(() => {
      timer = null
      tick()
    }, ms)
  }

  function launch(row: StoredDelivery): void {
    const claim = busy.get(row.seq)
    if (claim) claim.sending = true
    const attempt = deliver(row).finally(() => {
      running.delete(attempt)
      busy.delete(row.seq)
      kick()
    })
    running.add(attempt)
  }

  /** Never rejects: whatever goes wrong leaves the delivery leased, to be tried again after the lease. */
  async function deliver(row: StoredDelivery): Promise<void> {
    try {
      const where = target(row.integration_id)
      let outcome: AttemptOutcome
      if (!where.ok) outcome = { kind: 'gone', reason: where.reason }
      else if (shutdown.signal.aborted) outcome = { kind: 'interrupted' }
      else {
        try {
          outcome = await send({ url: where.url, secret: where.secret, id: row.id, body: row.body }, shutdown.signal)
        } catch (error) {
          outcome = { kind: 'network', error: String(error) }
        }
      }
      record(row, judgeAttempt(outcome, row.attempts, random), where.ok ? where.url : row.url)
    } catch (error) {
      logger.error('outbox delivery failed unexpectedly', { delivery_id: row.id, error: String(error) })
    }
  }

  function record(row: StoredDelivery, verdict: Verdict, url: string): void {
    const at = time.now()
    const fields = { delivery_id: row.id, integration_id: row.integration_id, event: row.event_type, attempts: row.attempts }
    try {
      batch.run(() => {
        if (verdict.kind === 'delivered') store.delivered(row.seq, { at: isoAt(at), url, statusCode: verdict.statusCode, error: null }, { receipt: verdict.receipt, note: verdict.note })
        else if (verdict.kind === 'retry') {
          store.retryAt(row.seq, isoAt(at + verdict.delayMs), { at: isoAt(at), url, statusCode: verdict.statusCode, error: verdict.error })
        } else store.fail(row.seq, { at: isoAt(at), url, statusCode: verdict.statusCode, error: verdict.error })
      })
    } catch (error) {
      // The lease runs out and the delivery is tried again.
      logger.error('outbox record failed', { ...fields, error: String(error) })
      return
    }
    deps.events?.emit('outbox.attempted', { kind, result: verdict.kind })
    if (verdict.kind === 'delivered') logger.debug(`${kind} delivered`, { ...fields, status: verdict.statusCode })
    else if (verdict.kind === 'retry') logger.info(`${kind} attempt failed; will retry`, { ...fields, error: verdict.error, retry_in_ms: verdict.delayMs })
    else logger.warn(`${kind} delivery failed`, { ...fields, error: verdict.error })
  }

  function prune(): void {
    if (stopping) return
    try {
      let removed = 0
      batch.run(() => {
        removed = store.prune(kind, isoAt(time.now() - retentionMs))
      })
      if (removed > 0) logger.info('outbox pruned', { removed })
    } catch (error) {
      logger.error('outbox prune failed', { error: String(error) })
    }
    pruneTimer = time.setTimeout(prune, PRUNE_EVERY_MS)
  }

  return {
    /** Begins: what an earlier process left pending is picked up at once. */
    start(): void {
      pruneTimer = time.setTimeout(prune, FIRST_PRUNE_MS)
      kick()
    },

    /** New deliveries were committed: look now rather than at the next planned wake. */
    wake: kick,

    /** Drops an integration's pending deliveries (deleted or switched off), with the reason. */
    dropIntegration(integrationId: string, reason: string): void {
      let dropped = 0
      try {
        batch.run(() => {
          dropped = store.failPendingOfIntegration(integrationId, isoAt(time.now()), reason)
        })
      } catch (error) {
        // Not lost: each attempt finds the integration gone or switched off and fails the delivery then.
        logger.error('outbox drop failed', { integration_id: integrationId, error: String(error) })
        return
      }
      if (dropped > 0) logger.info(`${kind} deliveries dropped`, { integration_id: integrationId, dropped, reason })
    },

    /**
     * Sends everything that is due by the worker's clock, waiting for each attempt, until
     * nothing due is left or under way; retries planned for later stay planned.
     */
    async drain(): Promise<void> {
      for (let pass = 0; pass < 10_000 && !stopping; pass++) {
        batch.flush()
        tick()
        batch.flush()
        if (busy.size === 0) return
        await Promise.allSettled([...running])
      }
    },

    /**
     * Stops claiming; deliveries under way get a grace period to finish, then are cut short
     * and left pending for the next start.
     */
    async close(): Promise<void> {
      stopping = true
      for (const handle of [timer, pruneTimer]) if (handle !== null) time.clearTimeout(handle)
      timer = pruneTimer = null
      if (running.size > 0 && shutdownGraceMs > 0) {
        let graceTimer: unknown = null
        const grace = new Promise<void>((resolve) => {
          graceTimer = time.setTimeout(resolve, shutdownGraceMs)
        })
        await Promise.race([Promise.allSettled([...running]), grace])
        time.clearTimeout(graceTimer)
      }
      shutdown.abort()
      await Promise.allSettled([...running])
    },
  }
}
