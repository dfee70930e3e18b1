import type { Units } from '../db/units.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import { isoAt, type OutboxTime, systemOutboxTime } from './outbox-time.ts'
import type { OutboxClaims } from './outbox-claims.ts'
import type { DeliveryKind, StoredDelivery } from './outbox-store.ts'
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

/** The worker's stores behind the seam, and the units its writes go in (docs/architecture.md, "The store seam"). */
export interface OutboxSeam {
  stores: { outboxClaims: OutboxClaims }
  units: Units<{ outboxClaims: OutboxClaims }>
}

export interface OutboxWorkerDeps extends OutboxTuning {
  claims: OutboxSeam
  /** The kind of delivery this worker sends (webhook unless told): it claims no other. */
  kind?: DeliveryKind
  send: DeliverySender
  target: (integrationId: string) => DeliveryTarget | Promise<DeliveryTarget>
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
 * Claims are made in a unit and sending starts once it is committed: the worker never sends
 * a delivery whose turn might still be rolled back (on SQLite the claim joins the group
 * commit, turns included). On PostgreSQL several workers may claim at once (SKIP LOCKED).
 */
export function outboxWorker(deps: OutboxWorkerDeps) {
  const { send, target, logger } = deps
  const { stores, units } = deps.claims
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
  /** The tick under way: ticks run one at a time; one asked for meanwhile runs after it. */
  let ticking: Promise<void> | null = null
  let tickAgain = false
  let timer: unknown = null
  let pruneTimer: unknown = null

  function kick(): void {
    if (stopping || tickQueued) return
    tickQueued = true
    queueMicrotask(() => {
      tickQueued = false
      void tick()
    })
  }

  /** Claims what is due (as many as there is room for), then sleeps until more falls due. */
  function tick(): Promise<void> {
    if (stopping) return Promise.resolve()
    if (ticking) {
      tickAgain = true
      return ticking
    }
    ticking = (async () => {
      try {
        do {
          tickAgain = false
          await claimDue()
          await schedule()
        } while (tickAgain && !stopping)
      } catch (error) {
        // The database failed (or is gone): look again later rather than never.
        logger.error('outbox worker failed', { error: String(error) })
        sleep(PAUSE_AFTER_ERROR_MS)
      } finally {
        ticking = null
      }
    })()
    return ticking
  }

  /** Sending starts only once the claim is committed. */
  async function claimDue(): Promise<void> {
    const now = time.now()
    forgetLostClaims(now)
    const room = concurrency - busy.size
    // Looking costs a read; claiming costs a write transaction, so it is opened only when something is due.
    const next = await stores.outboxClaims.nextDueAt(kind)
    if (room <= 0 || next === null || next > isoAt(now)) return
    const claimed = await units.unit((tx) => tx.outboxClaims.claimDue(kind, isoAt(now), room, isoAt(now + leaseMs), busy))
    for (const row of claimed) busy.set(row.seq, { claimedAt: now, sending: false })
    for (const row of claimed) launch(row)
  }

  /** A claim whose delivery never started is forgotten once its lease is over, so the row can be claimed again. */
  function forgetLostClaims(now: number): void {
    for (const [seq, claim] of busy) if (!claim.sending && now - claim.claimedAt > leaseMs) busy.delete(seq)
  }

  /** Sleeps until the next delivery falls due; deliveries under way wake the worker when they end. */
  async function schedule(): Promise<void> {
    const next = await stores.outboxClaims.nextDueAt(kind)
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
      void tick()
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
      const where = await target(row.integration_id)
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
      await record(row, judgeAttempt(outcome, row.attempts, random), where.ok ? where.url : row.url)
    } catch (error) {
      logger.error('outbox delivery failed unexpectedly', { delivery_id: row.id, error: String(error) })
    }
  }

  async function record(row: StoredDelivery, verdict: Verdict, url: string): Promise<void> {
    const at = time.now()
    const fields = { delivery_id: row.id, integration_id: row.integration_id, event: row.event_type, attempts: row.attempts }
    try {
      await units.unit((tx) => {
        if (verdict.kind === 'delivered') {
          return tx.outboxClaims.delivered(row.seq, { at: isoAt(at), url, statusCode: verdict.statusCode, error: null }, { receipt: verdict.receipt, note: verdict.note })
        }
        if (verdict.kind === 'retry') {
          return tx.outboxClaims.retryAt(row.seq, isoAt(at + verdict.delayMs), { at: isoAt(at), url, statusCode: verdict.statusCode, error: verdict.error })
        }
        return tx.outboxClaims.fail(row.seq, { at: isoAt(at), url, statusCode: verdict.statusCode, error: verdict.error })
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
    pruneTimer = time.setTimeout(prune, PRUNE_EVERY_MS)
    units.unit((tx) => tx.outboxClaims.prune(kind, isoAt(time.now() - retentionMs))).then(
      (removed) => {
        if (removed > 0) logger.info('outbox pruned', { removed })
      },
      (error: unknown) => logger.error('outbox prune failed', { error: String(error) }),
    )
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
    async dropIntegration(integrationId: string, reason: string): Promise<void> {
      let dropped = 0
      try {
        dropped = await units.unit((tx) => tx.outboxClaims.failPendingOfIntegration(integrationId, isoAt(time.now()), reason))
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
        await tick()
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
      let graceTimer: unknown = null
      const grace = new Promise<void>((resolve) => {
        graceTimer = shutdownGraceMs > 0 ? time.setTimeout(resolve, shutdownGraceMs) : null
      })
      // A claim under way ends first: what it took is then under way too, within the same grace period.
      if (ticking) await ticking
      if (running.size > 0 && graceTimer !== null) await Promise.race([Promise.allSettled([...running]), grace])
      if (graceTimer !== null) time.clearTimeout(graceTimer)
      shutdown.abort()
      await Promise.allSettled([...running])
    },
  }
}
