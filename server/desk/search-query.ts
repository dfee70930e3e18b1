/** FTS5 queries made from what a person typed: every word must match; nothing they type is FTS5 syntax. */
export interface SearchQuery {
  /** For the contacts' trigram index: each word (3 characters or more) anywhere in e-mail, phone or name; null when no word is long enough. */
  contactMatch: string | null
  /** For the messages' word index: each word as a prefix; null when no word has a letter or digit. */
  messageMatch: string | null
}

const quoted = (word: string) => `"${word.replaceAll('"', '""')}"`

export function searchQuery(typed: string): SearchQuery {
  // A control character (a NUL ends an FTS5 query's text early) separates words, as a space does.
  const words = typed.normalize('NFKC').replace(/\p{Cc}/gu, ' ').split(/\s+/).filter((word) => word.length > 0).slice(0, 16)
  // A phone number typed with its "+" or spaces: the index holds E.164 digits.
  const contactWords = words.map((word) => word.replace(/^\+/, '')).filter((word) => [...word].length >= 3)
  const messageWords = words.filter((word) => /[\p{L}\p{N}]/u.test(word))
  return {
    contactMatch: contactWords.length > 0 ? contactWords.map(quoted).join(' AND ') : null,
    messageMatch: messageWords.length > 0 ? messageWords.map((word) => `${quoted(word)}*`).join(' AND ') : null,
  }
}
