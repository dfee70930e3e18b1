/**
 * The system line that tells the model the visitor's language, so that it answers in kind:
 * the tag as the contact has it (pt-BR) and its English name (Brazilian Portuguese), which
 * models read more surely than a tag. Null without a language.
 */
export function visitorLanguageLine(locale: string | null | undefined): string | null {
  if (!locale) return null
  let name: string | undefined
  try {
    name = new Intl.DisplayNames('en', { type: 'language' }).of(locale)
  } catch {}
  const named = name && name !== locale ? `${name} (${locale})` : locale
  return `The visitor's language is ${named}. Answer in that language unless the visitor writes in another one.`
}
