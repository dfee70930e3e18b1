import { type Static, t } from 'elysia'
import { ChatbotParams, Id, listOf, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'

/**
 * What one chatbot's knowledge may hold, and why (docs/knowledge.md, "Limits"): a source's text
 * about a 300-page manual, and the whole well within what one SQLite file and one indexer serve
 * at once; a query is a question, not a page.
 */
export const KNOWLEDGE_LIMITS = {
  titleChars: 200,
  textChars: 1_000_000,
  questionChars: 1_000,
  answerChars: 20_000,
  sourcesPerChatbot: 1_000,
  bytesPerChatbot: 50 * 1024 * 1024,
  queryChars: 1_000,
  searchResults: 50,
  /** The largest body: a text source at its limit, every character escaped in JSON at worst, fits. */
  sourceBodyBytes: 8 * 1024 * 1024,
} as const

const L = KNOWLEDGE_LIMITS

/** Any text but the NUL character, which PostgreSQL cannot store: refused on both databases alike. */
const Text = (maxLength: number, description: string) =>
  t.String({ minLength: 1, maxLength, pattern: '^[^\\u0000]*$', patternError: 'must not contain the NUL character (U+0000)', description })

export const SourceType = t.Union([t.Literal('text'), t.Literal('qa')], {
  description: '`text`: pasted plain text or Markdown; `qa`: a question and its answer',
})
export const SourceStatus = t.Union([t.Literal('queued'), t.Literal('indexing'), t.Literal('ready'), t.Literal('failed')], {
  description: '`queued` until the indexer takes it, `indexing`, then `ready` (searchable) or `failed` (`failure` says why)',
})

export const CreateSource = t.Object(
  {
    type: SourceType,
    title: t.Optional(nameText(L.titleChars, { description: '`text` only (required): what the text is, shown with its passages' })),
    text: t.Optional(Text(L.textChars, '`text` only (required): plain text or Markdown, split into passages at headings and paragraphs')),
    question: t.Optional(nameText(L.questionChars, { description: '`qa` only (required): the question, which is also the title' })),
    answer: t.Optional(Text(L.answerChars, '`qa` only (required): the answer, one passage')),
  },
  {
    additionalProperties: false,
    description: 'A `text` source takes `title` and `text`; a `qa` pair takes `question` and `answer`.',
  },
)
export type CreateSource = Static<typeof CreateSource>

export const SourceParams = t.Object({ ...ChatbotParams.properties, source_id: t.String({ description: 'source ULID' }) })

const sourceFields = {
  id: Id,
  chatbot_id: Id,
  type: SourceType,
  title: t.String({ description: "a text's title, a pair's question" }),
  status: SourceStatus,
  failure: t.Union([t.String(), t.Null()], { description: 'why indexing failed; null unless `failed`' }),
  size_bytes: t.Integer({ minimum: 0, description: 'UTF-8 bytes of the text (a pair: question and answer)' }),
  passages: t.Integer({ minimum: 0, description: 'passages searchable now (the last indexing\'s; a refresh replaces them when it ends)' }),
  created_at: Timestamp,
  updated_at: Timestamp,
  indexed_at: t.Union([Timestamp, t.Null()], { description: 'when it was last indexed; null before its first indexing ends' }),
}

export const Source = t.Object(sourceFields)
export type Source = Static<typeof Source>

export const SourceDetail = t.Object({
  ...sourceFields,
  text: t.Optional(t.String({ description: '`text` sources: the text as given' })),
  question: t.Optional(t.String({ description: '`qa` sources' })),
  answer: t.Optional(t.String({ description: '`qa` sources' })),
})
export type SourceDetail = Static<typeof SourceDetail>

export const SourceList = listOf(Source)

export const SearchRequest = t.Object(
  {
    query: t.String({ minLength: 1, maxLength: L.queryChars, description: 'words or a question; its first 32 meaningful words are searched for' }),
    limit: t.Optional(t.Integer({ minimum: 1, maximum: L.searchResults, default: 5, description: 'passages to return at most' })),
  },
  { additionalProperties: false },
)
export type SearchRequest = Static<typeof SearchRequest>

export const SearchHit = t.Object({
  source_id: Id,
  title: t.String({ description: "the source's title (a pair's question)" }),
  heading: t.String({ description: 'the headings above the passage, outermost first, joined by " › "; empty before the first' }),
  anchor: t.String({ description: "the slug of the passage's nearest heading (as GitHub makes them), empty before the first" }),
  passage: t.Integer({ minimum: 0, description: 'its place in the source, from 0' }),
  text: t.String(),
  score: t.Number({ description: "higher is better; the scale is the database's own (BM25 on SQLite, ts_rank on PostgreSQL)" }),
})

export const SearchResult = t.Object({ items: t.Array(SearchHit, { description: 'best first' }) })
export type SearchResult = Static<typeof SearchResult>
