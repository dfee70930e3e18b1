/**
 * Recognises the dynamic parts of a string value: one binding (`${data.x}`, `${form.x}`,
 * `${screen.S.data.x}`, `${screen.S.form.x}`), a backtick expression (6.0+), or neither.
 */

export interface ParsedRef {
  /** As written, e.g. `${data.total}`. */
  readonly text: string
  readonly scope: 'data' | 'form'
  /** The screen named by `${screen.S.…}`, or null for the current screen. */
  readonly screen: string | null
  readonly field: string
  /** Property path below the field (`${data.user.name}` → ["name"]). */
  readonly rest: readonly string[]
}

export type StringKind =
  | { readonly kind: 'static' }
  | { readonly kind: 'binding'; readonly ref: ParsedRef | null }
  | { readonly kind: 'expression'; readonly body: string }
  | { readonly kind: 'mixed' }

const WHOLE_BINDING = /^\$\{([^{}]*)\}$/

/**
 * `expressions`: whether the document's version has backtick expressions (6.0+). Before that,
 * backticks around plain text are just text; around a binding they are still read as an
 * expression, so that the author learns it needs 6.0.
 */
export function classifyString(value: string, expressions = true): StringKind {
  const hasBinding = value.includes('${')
  const first = value.charCodeAt(0)
  if (first === 96 /* ` */ && value.length >= 2 && value.charCodeAt(value.length - 1) === 96 && (expressions || hasBinding)) {
    return { kind: 'expression', body: value.slice(1, -1) }
  }
  if (!hasBinding) return { kind: 'static' }
  const whole = WHOLE_BINDING.exec(value)
  if (whole) return { kind: 'binding', ref: parseRef(whole[1] as string, value) }
  return { kind: 'mixed' }
}

/** Parses the inside of `${…}`; null when it is not a binding the format knows. */
export function parseRef(inner: string, text = `\${${inner}}`): ParsedRef | null {
  const parts = inner.trim().split('.')
  if (parts.some((part) => part.length === 0)) return null
  if (parts[0] === 'screen') {
    if (parts.length < 4 || (parts[2] !== 'data' && parts[2] !== 'form')) return null
    return build(text, parts[2], parts[1] as string, parts.slice(3))
  }
  if (parts.length < 2 || (parts[0] !== 'data' && parts[0] !== 'form')) return null
  return build(text, parts[0], null, parts.slice(1))
}

function build(text: string, scope: 'data' | 'form', screen: string | null, path: string[]): ParsedRef | null {
  const [field, ...rest] = path
  if (field === undefined) return null
  return { text, scope, screen, field, rest }
}
