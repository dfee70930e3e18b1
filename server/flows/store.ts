import type { Page, PageOf } from '../http/common-model.ts'
import type { FlowListItem, FlowStatus, FlowType } from './model.ts'

/** A flow as stored: the definition is JSON text, the working copy. */
export interface FlowRecord {
  id: string
  chatbot_id: string
  name: string
  type: FlowType
  status: FlowStatus
  created_at: string
  updated_at: string | null
  published_at: string | null
  published_version: number | null
  definition: string
}

export type FlowRow = FlowRecord & {
  /** 1 when the flow is published and the working copy differs from the live version. */
  has_unpublished_changes: 0 | 1
}

/** A published version with the flow it belongs to; the definition is JSON text. */
export interface StoredSnapshot {
  flow_id: string
  chatbot_id: string
  type: FlowType
  version: number
  published_at: string
  definition: string
}

export interface FlowSummary {
  id: string
  type: FlowType
  published: boolean
}

/**
 * The only code that reads and writes flows and their published versions (docs/architecture.md,
 * "The store seam"). The working copy is compared with the live version in SQL, so a 10 MB
 * document is never loaded twice into JavaScript to answer one boolean.
 */
export interface FlowStore {
  chatbotExists(workspaceId: string, chatbotId: string): Promise<boolean>
  /** Every published version of a flow, newest first, without definitions. */
  versions(id: string): Promise<{ version: number; published_at: string }[]>
  insert(record: FlowRecord): Promise<void>
  get(chatbotId: string, id: string): Promise<FlowRow | undefined>
  /** Newest first, the larger id (in byte order) first on a tie. */
  list(chatbotId: string, page: Page): Promise<PageOf<FlowListItem>>
  update(chatbotId: string, id: string, change: { name: string; definition: string; updated_at: string }): Promise<void>
  /**
   * Stores a definition as the flow's next version and makes it live; returns its number, or
   * null when the flow is gone (nothing written). Numbering is safe with concurrent writers: on
   * PostgreSQL the flow's row is locked first (SELECT … FOR UPDATE), on SQLite there is one writer.
   * Run it in a unit.
   */
  publish(id: string, definition: string, publishedAt: string): Promise<number | null>
  /** Deletes the flow (its versions go with it) and unsets it as its chatbot's entry flow; false when it had none by that id. Run it in a unit. */
  remove(chatbotId: string, id: string, now: string): Promise<boolean>
  kind(chatbotId: string, id: string): Promise<FlowType | undefined>
  /** Every flow of a chatbot with its type and whether it has a live version. */
  summaries(chatbotId: string): Promise<FlowSummary[]>
  liveSnapshot(id: string): Promise<StoredSnapshot | undefined>
  versionSnapshot(id: string, version: number): Promise<StoredSnapshot | undefined>
  /**
   * Where a new conversation starts: the entry flow's live version, else the live conversation
   * version published last (by insertion order, whatever the clock said). Without the
   * definition: a running server has it in memory.
   */
  entryVersion(chatbotId: string): Promise<{ flow_id: string; version: number } | undefined>
}
