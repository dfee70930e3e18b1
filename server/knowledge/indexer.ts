import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import type { Logger } from '../support/logger.ts'
import { randomToken } from '../support/random-token.ts'
import { type Passage, splitPassages } from './passages.ts'
import type { ClaimedSource, KnowledgeStore } from './store.ts'

type KnowledgeStores = { knowledge: KnowledgeStore }

export interface IndexerTuning {
  /** How long a claim holds a source: another indexer takes it after that (its own stopped). */
  leaseMs?: number
  /** Claims of one source before it is marked failed: a source that stops the indexer each time must not stop it forever. */
  maxAttempts?: number
  /** How often sources whose lease ended are looked for, besides each wake. */
  pollMs?: number
}

export interface IndexerDeps {
  stores: KnowledgeStores
  units: Units<KnowledgeStores>
  now: Clock
  logger: Logger
  /** Only this process writes the database (SQLite): a source left indexing at start was this process's, taken up at once. */
  soleWriter: boolean
  tuning?: IndexerTuning
}

export type KnowledgeIndexer = ReturnType<typeof knowledgeIndexer>

/**
 * Indexes queued sources in the background, one at a time (a source is bounded by the
 * model's limits, so one turn of it is short), yielding to the event loop between sources.
 * A source's passages and its `ready` are one unit: a crash leaves it `indexing` with what it
 * had, and it is taken up again at start (SQLite) or when its lease ends (another node).
 */
export function knowledgeIndexer({ stores, units, now, logger, soleWriter, tuning = {} }: IndexerDeps) {
  const leaseMs = tuning.leaseMs ?? 60_000
  const maxAttempts = tuning.maxAttempts ?? 3
  const pollMs = tuning.pollMs ?? 60_000
  let running: Promise<void> | null = null
  let again = false
  let closed = false
  let poll: ReturnType<typeof setInterval> | undefined

  function wake(): void {
    if (closed) return
    if (running) {
      again = true
      return
    }
    running = drain()
      .catch((error) => logger.error('knowledge indexing stopped', { error: String(error) }))
      .finally(() => {
        running = null
        if (again) {
          again = false
          wake()
        }
      })
  }

  async function drain(): Promise<void> {
    while (!closed) {
      const at = now()
      // Read first: an idle indexer opens no write (on SQLite, no batch) each time it wakes.
      if ((await stores.knowledge.backlog(at)).claimable === 0) return
      const claim = randomToken(22)
      const source = await units.unit((tx) => tx.knowledge.claimNext(at, new Date(Date.parse(at) + leaseMs).toISOString(), claim))
      if (!source) return
      await indexOne(source, claim)
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
  }

  async function indexOne(source: ClaimedSource, claim: string): Promise<void> {
    const fail = (reason: string) => units.unit((tx) => tx.knowledge.fail(source.id, claim, reason, now()))
    if (source.attempts > maxAttempts) {
      await fail(`indexing stopped before it ended ${source.attempts - 1} times`)
      logger.warn('knowledge source failed: indexing kept stopping', { source_id: source.id })
      return
    }
    let passages: Passage[]
    try {
      passages = passagesOf(source)
    } catch (error) {
      logger.error('knowledge source could not be split', { source_id: source.id, error: String(error) })
      await fail('the text could not be split into passages')
      return
    }
    if (passages.length === 0) {
      await fail('the text has no passage to index (only headings or blank lines)')
      return
    }
    const stored = await units.unit((tx) => tx.knowledge.finish(source.id, claim, passages, now()))
    logger.debug('knowledge source indexed', { source_id: source.id, passages: passages.length, stored })
  }

  return {
    wake,
    /** Takes up what an earlier run left (SQLite), then indexes what waits; looks for ended leases every pollMs. */
    async start(): Promise<void> {
      const backlog = await stores.knowledge.backlog(now())
      if (soleWriter && backlog.indexing > 0) {
        const resumed = await units.unit((tx) => tx.knowledge.requeueInterrupted(now()))
        logger.info('knowledge sources left indexing are queued again', { sources: resumed })
      }
      poll = setInterval(wake, pollMs)
      poll.unref?.()
      if (backlog.claimable > 0 || (soleWriter && backlog.indexing > 0)) wake()
    },
    /** Resolves once nothing is being indexed (tests). */
    async idle(): Promise<void> {
      while (running) await running
    },
    async close(): Promise<void> {
      closed = true
      clearInterval(poll)
      while (running) await running
    },
  }
}

/** A text source's passages; a pair is one passage, its answer (the question is its title). */
export function passagesOf(source: Pick<ClaimedSource, 'type' | 'content'>): Passage[] {
  return source.type === 'qa' ? [{ heading: '', anchor: '', text: source.content }] : splitPassages(source.content)
}
