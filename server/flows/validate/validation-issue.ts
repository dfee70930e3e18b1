/** One finding of a flow validator: where (a JSON Pointer into the definition), what, and why. */
export interface ValidationIssue {
  /** RFC 6901 JSON Pointer into the flow definition, e.g. `/states/welcome/on/2/to`. */
  path: string
  /** Stable machine-readable code (snake_case for conversation flows, the provider's codes for meta flows). */
  code: string
  message: string
}

export interface ValidationReport {
  /** Publishing is refused while there are any. */
  errors: ValidationIssue[]
  /** Worth a look; publishing is allowed. */
  warnings: ValidationIssue[]
}

/** Escapes one reference token for a JSON Pointer (RFC 6901: `~` then `/`). */
export function pointerToken(token: string | number): string {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1')
}

/** Builds a JSON Pointer from its tokens. */
export function pointer(...tokens: (string | number)[]): string {
  return tokens.map((token) => `/${pointerToken(token)}`).join('')
}
