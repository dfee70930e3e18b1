import type { BodyLimit } from '../http/json-body.ts'
import type { Authenticate } from '../people/authenticate.ts'
import { type IndexerDeps, knowledgeIndexer } from './indexer.ts'
import { KNOWLEDGE_LIMITS } from './model.ts'
import { knowledgeRoutes } from './routes.ts'
import { knowledgeService } from './service.ts'

/** The indexer's deps are all the module needs: the service takes the same stores and units. */
export type KnowledgeModuleDeps = IndexerDeps

export type KnowledgeModule = ReturnType<typeof knowledgeModule>

/** Each chatbot's knowledge: sources, their background indexing and full-text search (docs/knowledge.md). */
export function knowledgeModule({ stores, units, now, logger, soleWriter, tuning }: KnowledgeModuleDeps) {
  const indexer = knowledgeIndexer({ stores, units, now, logger, soleWriter, tuning })
  const knowledge = knowledgeService({ stores, units, now, queued: indexer.wake })
  indexer.start().catch((error) => logger.error('knowledge indexer did not start', { error: String(error) }))
  return {
    knowledge,
    indexer,
    routes: (auth: Authenticate) => knowledgeRoutes(auth, knowledge),
    /** A text source's body may hold 1,000,000 characters: more than the default 1 MB once in UTF-8 and JSON. */
    bodyLimits: [{ path: /^\/api\/dev\/v1\/chatbots\/[^/]+\/knowledge\/sources$/, bytes: KNOWLEDGE_LIMITS.sourceBodyBytes }] as BodyLimit[],
    close: () => indexer.close(),
  }
}
