/**
 * What the CLI prints of stored text (names, e-mails, prefixes), made harmless for the
 * terminal: control characters (C0, DEL, C1) and the bidirectional formatting characters are
 * written as escapes (`\x1b`, `\u202e`), so a stored `ESC ]0;...` cannot retitle or clear the
 * operator's terminal, a newline cannot fake a row and U+202E cannot reverse a column. Rows
 * stored before names were checked are printed safely too. A backslash is left as it is: the
 * escapes are for reading, not for parsing back.
 */
export function terminalText(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu, (character) => {
    const code = character.codePointAt(0) as number
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`
  })
}
