import type { EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import type { MessageSearchStore } from './message-search-store.ts'

export interface MessageIndexerTuning {
  /** How long after a stored message its batch is indexed: the most a search lags behind, plus one batch. */
  delayMs?: number
  /** Messages looked at per transaction (bot lines included): bounds how long one batch holds the thread. */
  batchSize?: number
}

export type MessageIndexer = ReturnType<typeof messageIndexer>

/** When the connection is in an open write batch: that batch commits on the next turn of the event loop. */
const BUSY_RETRY_MS = 5
/** After a failure (the disk is full, say): try again later, the cursor has not moved. */
const FAILURE_RETRY_MS = 5_000

interface Deps {
  store: MessageSearchStore
  events: EventBus
  logger: Logger
  tuning?: MessageIndexerTuning
}

/**
 * Keeps the desk's message search index in step, after the commit instead of in the chat
 * turn's transaction: a trigger made every turn pay for FTS5 (bench:writes, 0.38 -> 0.70).
 * Stored messages are announced on 'conversation.messages' once committed; the first such
 * announcement schedules a batch `delayMs` later, so a busy server indexes many turns' messages
 * in one transaction. While a batch finds more than it may take, the next follows on the next
 * turn of the event loop (requests are served in between). At start it indexes whatever the
 * cursor has not reached: what a crash, or messages stored without an announcement, left behind.
 */
export function messageIndexer({ store, events, logger, tuning = {} }: Deps) {
  const delayMs = tuning.delayMs ?? 250
  const batchSize = tuning.batchSize ?? 1000
  let timer: ReturnType<typeof setTimeout> | null = null
  let closed = false
  let longestBatchMs = 0
  let waiting: (() => void)[] = []

  function schedule(ms: number): void {
    if (closed || timer) return
    timer = setTimeout(indexBatch, ms)
    timer.unref?.()
  }

  function settle(): void {
    const callbacks = waiting
    waiting = []
    for (const callback of callbacks) callback()
  }

  function indexBatch(): void {
    timer = null
    let scanned: number | null
    try {
      const started = performance.now()
      scanned = store.indexNext(batchSize)
      longestBatchMs = Math.max(longestBatchMs, performance.now() - started)
    } catch (error) {
      logger.error('desk search: indexing messages failed, trying again later', { error: error instanceof Error ? error.message : String(error) })
      schedule(FAILURE_RETRY_MS)
      return
    }
    if (scanned === null) schedule(BUSY_RETRY_MS)
    else if (scanned === batchSize) schedule(0)
    else settle()
  }

  const off = events.on('conversation.messages', () => schedule(delayMs))
  schedule(0)

  return {
    /** Resolves once every message announced so far is indexed (at once when nothing is scheduled). */
    caughtUp(): Promise<void> {
      if (!timer) return Promise.resolve()
      return new Promise((resolve) => waiting.push(resolve))
    },
    /** The longest one batch has held the thread, in milliseconds, since start. */
    longestBatchMs: () => longestBatchMs,
    close(): void {
      closed = true
      off()
      if (timer) clearTimeout(timer)
      timer = null
      settle()
    },
  }
}
