import { ApiError, invalidField, notFound } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import { newId } from '../support/new-id.ts'
import { type CreateSource, KNOWLEDGE_LIMITS, type SearchRequest, type SearchResult, type Source, type SourceDetail } from './model.ts'
import { distinctiveTerms } from './distinctive-terms.ts'
import { searchTerms } from './search-terms.ts'
import type { KnowledgeStore, SourceRecord, SourceRow, SourceType } from './store.ts'

type KnowledgeStores = { knowledge: KnowledgeStore }

export interface KnowledgeServiceDeps {
  stores: KnowledgeStores
  units: Units<KnowledgeStores>
  now: Clock
  /** Tells the indexer a source waits (after its commit). */
  queued: () => void
}

export type KnowledgeService = ReturnType<typeof knowledgeService>

/** A chatbot's knowledge sources and the search over their passages; indexing is the indexer's. */
export function knowledgeService({ stores, units, now, queued }: KnowledgeServiceDeps) {
  const store = stores.knowledge
  const ownChatbot = async (workspaceId: string, chatbotId: string) => {
    if (!(await store.chatbotExists(workspaceId, chatbotId))) throw notFound('chatbot')
  }

  return {
    async create(workspaceId: string, chatbotId: string, body: CreateSource): Promise<Source> {
      const { type, title, content } = sourceOf(body)
      const at = now()
      const record: SourceRecord = {
        id: newId(),
        chatbot_id: chatbotId,
        type,
        title,
        content,
        size_bytes: Buffer.byteLength(type === 'qa' ? title + content : content),
        status: 'queued',
        failure: null,
        passages: 0,
        created_at: at,
        updated_at: at,
        indexed_at: null,
      }
      // Checked and written in one unit (one writer on SQLite; on PostgreSQL two creates at
      // once may pass a limit by one each). Nothing is thrown inside: a unit that throws rolls its batch back.
      const outcome = await units.unit(async (tx) => {
        if (!(await tx.knowledge.chatbotExists(workspaceId, chatbotId))) return 'no chatbot' as const
        const totals = await tx.knowledge.totals(chatbotId)
        if (totals.sources >= KNOWLEDGE_LIMITS.sourcesPerChatbot) return 'too many' as const
        if (totals.bytes + record.size_bytes > KNOWLEDGE_LIMITS.bytesPerChatbot) return 'too large' as const
        await tx.knowledge.insert(record)
        return 'stored' as const
      })
      if (outcome === 'no chatbot') throw notFound('chatbot')
      if (outcome === 'too many') {
        throw new ApiError(409, 'knowledge_full', `the chatbot has ${KNOWLEDGE_LIMITS.sourcesPerChatbot} knowledge sources, the most it may have: delete one first`)
      }
      if (outcome === 'too large') {
        throw new ApiError(409, 'knowledge_full', `the chatbot's knowledge would pass ${KNOWLEDGE_LIMITS.bytesPerChatbot / 1024 / 1024} MB of text: delete a source first`)
      }
      queued()
      return view(record)
    },

    async list(workspaceId: string, chatbotId: string, page: Page): Promise<PageOf<Source>> {
      await ownChatbot(workspaceId, chatbotId)
      const { items, total } = await store.list(chatbotId, page)
      return { items: items.map(view), total }
    },

    async get(workspaceId: string, chatbotId: string, id: string): Promise<SourceDetail> {
      await ownChatbot(workspaceId, chatbotId)
      const record = await store.get(chatbotId, id)
      if (!record) throw notFound('knowledge source')
      return record.type === 'qa' ? { ...view(record), question: record.title, answer: record.content } : { ...view(record), text: record.content }
    },

    async remove(workspaceId: string, chatbotId: string, id: string): Promise<void> {
      await ownChatbot(workspaceId, chatbotId)
      if (!(await units.unit((tx) => tx.knowledge.remove(chatbotId, id)))) throw notFound('knowledge source')
    },

    /** Indexes the source again from its stored content; what it had stays searchable until then. */
    async refresh(workspaceId: string, chatbotId: string, id: string): Promise<Source> {
      await ownChatbot(workspaceId, chatbotId)
      const row = await units.unit((tx) => tx.knowledge.requeue(chatbotId, id, now()))
      if (!row) throw notFound('knowledge source')
      queued()
      return view(row)
    },

    async search(workspaceId: string, chatbotId: string, request: SearchRequest): Promise<SearchResult> {
      await ownChatbot(workspaceId, chatbotId)
      const terms = searchTerms(request.query)
      if (terms.length === 0) throw invalidField('/query', 'has no word to search for (letters or digits)')
      const hits = await store.search(chatbotId, await distinctiveTerms(store, chatbotId, terms), request.limit ?? 5)
      return {
        items: hits.map((hit) => ({ source_id: hit.source_id, title: hit.title, heading: hit.heading, anchor: hit.anchor, passage: hit.ordinal, text: hit.text, score: hit.score })),
      }
    },
  }
}

/** The body's fields for its type; a field of the other type, or a missing one, is a 422 naming it. */
function sourceOf(body: CreateSource): { type: SourceType; title: string; content: string } {
  const [needed, refused] = body.type === 'text' ? [['title', 'text'], ['question', 'answer']] : [['question', 'answer'], ['title', 'text']]
  const errors = [
    ...needed.filter((field) => body[field as keyof CreateSource] === undefined).map((field) => ({ path: `/${field}`, message: `is required for a ${body.type} source` })),
    ...refused.filter((field) => body[field as keyof CreateSource] !== undefined).map((field) => ({ path: `/${field}`, message: `is not a field of a ${body.type} source` })),
  ]
  if (errors.length > 0) {
    throw new ApiError(422, 'validation_failed', errors.map((error) => `${error.path.slice(1)} ${error.message}`).join('; '), errors)
  }
  if (body.type === 'qa') return { type: 'qa', title: body.question as string, content: body.answer as string }
  const text = body.text as string
  if (!/[\p{L}\p{N}]/u.test(text)) throw invalidField('/text', 'has no word to index (letters or digits)')
  return { type: 'text', title: body.title as string, content: text }
}

function view(row: SourceRow): Source {
  return {
    id: row.id,
    chatbot_id: row.chatbot_id,
    type: row.type,
    title: row.title,
    status: row.status,
    failure: row.failure,
    size_bytes: row.size_bytes,
    passages: row.passages,
    created_at: row.created_at,
    updated_at: row.updated_at,
    indexed_at: row.indexed_at,
  }
}
