import { t } from 'elysia'

/**
 * What a name must not hold: control characters (C0 with tab and newline, DEL, C1: `ESC ]0;`
 * retitles a terminal, `ESC [2J` clears it, U+009B is a one-character CSI), the
 * bidirectional formatting characters (U+202A-U+202E embeddings and overrides, U+2066-U+2069
 * isolates, the LRM, RLM and ALM marks: `U+202E` makes "evil‮txt.exe" read otherwise) and
 * the line and paragraph separators. Names are shown in lists, terminals and notifications,
 * where any of these rewrites what is around them. Written as escapes, so the pattern reads
 * the same in the OpenAPI document.
 */
export const NAME_REFUSED_CHARACTERS = '\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u200E\\u200F\\u2028-\\u202E\\u2066-\\u2069'

const refused = new RegExp(`[${NAME_REFUSED_CHARACTERS}]`, 'u')

/** Whether a name holds a character it must not. */
export const hasRefusedCharacter = (text: string): boolean => refused.test(text)

const REFUSED_WORDS = 'must not contain control characters (such as ESC or a line break) or bidirectional overrides (such as U+202E)'

/** What is wrong with a name given outside a request (a CLI argument), in the schema's words; null when nothing. */
export function nameProblem(text: string, maxLength: number): string | null {
  if (text.length === 0) return 'must not be empty'
  if (text.length > maxLength) return `must be at most ${maxLength} characters`
  return hasRefusedCharacter(text) ? REFUSED_WORDS : null
}

/**
 * The one schema of every name field (a chatbot's, a flow's, an integration's, an API key's,
 * a person's display name, the widget's bot name, an agent message's author): 1 to
 * `maxLength` characters, none of NAME_REFUSED_CHARACTERS; anything else is 422 naming the
 * field. Any other script, emoji and punctuation are welcome.
 */
export function nameText(maxLength: number, options: { examples?: string[]; description?: string; default?: string } = {}) {
  return t.String({
    minLength: 1,
    maxLength,
    pattern: `^[^${NAME_REFUSED_CHARACTERS}]*$`,
    patternError: REFUSED_WORDS,
    ...options,
  })
}
