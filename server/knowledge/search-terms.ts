/** At most this many words of a query are searched for: a pasted page is not a question. */
export const MAX_QUERY_TERMS = 32
/** Longer "words" (a hash, a base64 blob) match nothing useful. */
const MAX_TERM_LENGTH = 64

/**
 * Words so common in English questions that they say nothing of what is asked ("how do I ...").
 * Dropped from a query unless it holds nothing else: BM25 would weigh them down anyway, but
 * PostgreSQL's ts_rank has no IDF and would let them rank a passage.
 */
const STOPWORDS = new Set(
  ('a an and are as at be but by can could do does did for from had has have how i if in into is it its me my no not of on or our ' +
    'should so than that the their them then there these they this to us was we were what when where which who whom why will with ' +
    'would you your yours about after all also any been before being both each few more most other over same some such too under ' +
    'until up very just only own again further once here off out am she he her him his hers ours theirs myself yourself').split(' '),
)

/** Lower case, diacritics removed: how both databases see a word (FTS5's remove_diacritics, the folded text given to PostgreSQL). */
export function foldText(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
}

/**
 * The words of a query, as plain letters and digits only (so they are safe in an FTS5 MATCH
 * expression and a tsquery without escaping): folded, de-duplicated, stopwords dropped,
 * at most MAX_QUERY_TERMS. Empty when the query has no word at all.
 */
export function searchTerms(query: string): string[] {
  const words = foldText(query).match(/[\p{L}\p{N}]+/gu) ?? []
  const unique = [...new Set(words.filter((word) => word.length <= MAX_TERM_LENGTH && (word.length > 1 || /\p{N}/u.test(word))))]
  const meaningful = unique.filter((word) => !STOPWORDS.has(word))
  return (meaningful.length > 0 ? meaningful : unique).slice(0, MAX_QUERY_TERMS)
}
