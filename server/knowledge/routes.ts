import { Elysia, t } from 'elysia'
import { ChatbotParams, PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import type { Authenticate } from '../people/authenticate.ts'
import { CreateSource, SearchRequest, SearchResult, Source, SourceDetail, SourceList, SourceParams } from './model.ts'
import type { KnowledgeService } from './service.ts'

const tags = ['Knowledge']

export function knowledgeRoutes(auth: Authenticate, knowledge: KnowledgeService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/knowledge' })
    .use(auth)
    .get('/sources', ({ workspaceId, params, query }) => knowledge.list(workspaceId, params.chatbot_id, query), {
      params: ChatbotParams,
      query: PageQuery,
      response: { 200: SourceList, ...errorResponses(404, 422) },
      detail: { tags, summary: 'List knowledge sources', description: 'Newest first, with each one\'s indexing status; without their text (GET one source for it).' },
    })
    .post('/sources', async ({ workspaceId, params, body, status }) => status(201, await knowledge.create(workspaceId, params.chatbot_id, body)), {
      params: ChatbotParams,
      body: CreateSource,
      response: { 201: Source, ...errorResponses(400, 404, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Add a knowledge source',
        description:
          'Pasted text or Markdown (`{"type": "text", "title", "text"}`) or a question-answer pair (`{"type": "qa", "question", "answer"}`). ' +
          'Answers at once with the source `queued`; it is indexed in the background and searchable once `ready`. ' +
          'Limits (docs/knowledge.md): 1,000,000 characters of text, 1,000 sources and 50 MB per chatbot (409 `knowledge_full` past those).',
      },
    })
    .get('/sources/:source_id', ({ workspaceId, params }) => knowledge.get(workspaceId, params.chatbot_id, params.source_id), {
      params: SourceParams,
      response: { 200: SourceDetail, ...errorResponses(404) },
      detail: { tags, summary: 'Get a knowledge source', description: 'With its text (a pair: its question and answer) and indexing status.' },
    })
    .delete(
      '/sources/:source_id',
      async ({ workspaceId, params, status }) => {
        await knowledge.remove(workspaceId, params.chatbot_id, params.source_id)
        return status(204, undefined)
      },
      {
        params: SourceParams,
        response: { 204: t.Void(), ...errorResponses(404) },
        detail: { tags, summary: 'Delete a knowledge source', description: 'With its passages: searches stop finding them at once.' },
      },
    )
    .post('/sources/:source_id/refresh', async ({ workspaceId, params, status }) => status(202, await knowledge.refresh(workspaceId, params.chatbot_id, params.source_id)), {
      params: SourceParams,
      response: { 202: Source, ...errorResponses(404) },
      detail: {
        tags,
        summary: 'Index a knowledge source again',
        description: 'Queues it (a failed source too, with its attempts counted afresh); its current passages stay searchable until the new ones replace them.',
      },
    })
    .post('/search', ({ workspaceId, params, body }) => knowledge.search(workspaceId, params.chatbot_id, body), {
      params: ChatbotParams,
      body: SearchRequest,
      response: { 200: SearchResult, ...errorResponses(400, 404, 415, 422) },
      detail: {
        tags,
        summary: 'Search the knowledge',
        description: 'Full-text search over the chatbot\'s ready passages (any of the query\'s words; stems and accents matched), best first.',
      },
    })
}
