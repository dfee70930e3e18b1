import type { Page, PageOf } from '../http/common-model.ts'
import type { Passage } from './passages.ts'

export type SourceType = 'text' | 'qa'
export type SourceStatus = 'queued' | 'indexing' | 'ready' | 'failed'

/** A source as listed: what it is and where its indexing stands, without its content. */
export interface SourceRow {
  id: string
  chatbot_id: string
  type: SourceType
  title: string
  size_bytes: number
  status: SourceStatus
  failure: string | null
  passages: number
  created_at: string
  updated_at: string
  indexed_at: string | null
}

/** A text source's text, a question-answer pair's answer (its question is the title). */
export type SourceRecord = SourceRow & { content: string }

/** A source an indexer took: `attempts` counts this claim. */
export interface ClaimedSource {
  id: string
  chatbot_id: string
  type: SourceType
  title: string
  content: string
  attempts: number
}

/** A passage found by a search; `score` is higher for a better match (its scale is the database's own). */
export interface PassageHit {
  source_id: string
  title: string
  heading: string
  anchor: string
  text: string
  ordinal: number
  score: number
}

/**
 * The only code that reads and writes knowledge sources, their passages and their search
 * index (docs/knowledge.md; "The store seam" in docs/architecture.md). Writes run in a unit.
 */
export interface KnowledgeStore {
  chatbotExists(workspaceId: string, chatbotId: string): Promise<boolean>
  /** How many sources a chatbot has and the bytes of their content: what its limits count. */
  totals(chatbotId: string): Promise<{ sources: number; bytes: number }>
  insert(source: SourceRecord): Promise<void>
  get(chatbotId: string, id: string): Promise<SourceRecord | undefined>
  /** Newest first, the larger id first on a tie. */
  list(chatbotId: string, page: Page): Promise<PageOf<SourceRow>>
  /** Deletes the source with its passages; false when the chatbot has none by that id. */
  remove(chatbotId: string, id: string): Promise<boolean>
  /** Queued again (a refresh): whoever was indexing it loses its claim; its passages stay searchable until replaced. */
  requeue(chatbotId: string, id: string, at: string): Promise<SourceRow | undefined>
  /**
   * Takes the source waiting longest: queued, or left indexing by a claim whose lease ended
   * before `at` (its indexer stopped). Several indexers never take the same one (PostgreSQL
   * skips rows another holds). Counts an attempt.
   */
  claimNext(at: string, leaseUntil: string, claim: string): Promise<ClaimedSource | undefined>
  /** What waits for an indexer: sources claimNext would take at `at`, and sources being indexed (a plain read, so an idle indexer writes nothing). */
  backlog(at: string): Promise<{ claimable: number; indexing: number }>
  /** Every source left indexing queued again: for a database only this process writes (SQLite), at its start. */
  requeueInterrupted(at: string): Promise<number>
  /** Replaces the source's passages and marks it ready, if `claim` still holds it (false otherwise: nothing written). */
  finish(id: string, claim: string, passages: Passage[], at: string): Promise<boolean>
  /** Marks the source failed with the reason, if `claim` still holds it; the passages it had stay. */
  fail(id: string, claim: string, reason: string, at: string): Promise<boolean>
  /** How many passages the chatbot has (its sources' counts). */
  passageCount(chatbotId: string): Promise<number>
  /** For each of `terms`, how many of the chatbot's passages hold it, counted up to `atMost` (a cheap bound for common words). */
  matchCounts(chatbotId: string, terms: string[], atMost: number): Promise<number[]>
  /** A chatbot's passages matching any of `terms` (plain letters and digits, folded), best first. */
  search(chatbotId: string, terms: string[], limit: number): Promise<PassageHit[]>
}
