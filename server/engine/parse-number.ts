const SIGN = '[+-]?'
const PLAIN = new RegExp(`^${SIGN}(\\d+|\\d*\\.\\d+)$`)
/** 12,5 is twelve and a half; 1,500 (exactly three digits after one comma) is fifteen hundred. */
const DECIMAL_COMMA = new RegExp(`^${SIGN}\\d+,(\\d{1,2}|\\d{4,})$`)
const COMMA_GROUPS = new RegExp(`^${SIGN}\\d{1,3}(,\\d{3})+(\\.\\d+)?$`)
/** 1.234,5 and 1.234.567; a lone 1.234 stays one point two three four. */
const DOT_GROUPS = new RegExp(`^${SIGN}\\d{1,3}((\\.\\d{3})+,\\d+|(\\.\\d{3}){2,})$`)
const MAX_LENGTH = 32

/**
 * A number as people type it: `42`, `-3.5`, `3,5`, `1,500`, `1 500`, `1,234.5`, `1.234,5`.
 * null for anything else (words, units, currency signs, exponents, several numbers).
 */
export function parseNumber(raw: string): number | null {
  // A space, no-break space or apostrophe groups thousands only before exactly three digits.
  const spelled = raw
    .trim()
    .replace(/(\d)[ \u00a0\u202f'](?=\d{3}(?!\d))/g, '$1')
    .replace(/^\u2212/, '-')
  if (spelled.length === 0 || spelled.length > MAX_LENGTH) return null
  let canonical: string | null = null
  if (PLAIN.test(spelled)) canonical = spelled
  else if (DECIMAL_COMMA.test(spelled)) canonical = spelled.replace(',', '.')
  else if (COMMA_GROUPS.test(spelled)) canonical = spelled.replaceAll(',', '')
  else if (DOT_GROUPS.test(spelled)) canonical = spelled.replaceAll('.', '').replace(',', '.')
  if (canonical === null) return null
  const value = Number(canonical)
  // -0 would be stored as 0 in JSON anyway; keep what is stored and what is captured equal.
  return Number.isFinite(value) ? value + 0 : null
}
