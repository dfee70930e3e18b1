import type { KnowledgeStore } from './store.ts'

/**
 * A word more than half a chatbot's passages hold is left out of its search: BM25 gives it no
 * weight (FTS5's inverse document frequency is then at its floor), while scoring every passage
 * it matches is most of what a search costs (docs/knowledge.md, "Speed").
 */
export const COMMON_SHARE = 0.5
/** Below this many matches a word is always searched for: small knowledge bases use every word. */
export const COMMON_FLOOR = 100

/**
 * The words of a query worth looking for in the chatbot's passages: those some passage holds
 * and at most COMMON_SHARE of them do. When every word is that common, the one fewest hold:
 * the order BM25 would give is then no better than that word's alone.
 */
export async function distinctiveTerms(store: Pick<KnowledgeStore, 'passageCount' | 'matchCounts'>, chatbotId: string, terms: string[]): Promise<string[]> {
  if (terms.length === 0) return []
  const most = Math.max(COMMON_FLOOR, Math.floor((await store.passageCount(chatbotId)) * COMMON_SHARE))
  const counts = await store.matchCounts(chatbotId, terms, most + 1)
  const held = terms.filter((_, i) => (counts[i] ?? 0) > 0)
  const distinctive = terms.filter((_, i) => (counts[i] ?? 0) > 0 && (counts[i] ?? 0) <= most)
  if (distinctive.length > 0 || held.length === 0) return distinctive
  const exact = await store.matchCounts(chatbotId, held, Number.MAX_SAFE_INTEGER)
  const fewest = Math.min(...exact)
  return [held[exact.indexOf(fewest)] as string]
}
