import { TEMPLATE } from '../flow-language/template-syntax.ts'
import type { Scalar } from './model.ts'

export interface TemplateValues {
  variables: Record<string, Scalar>
  contact: Record<string, Scalar>
}

/** A text cut at its templates: literal pieces and the holes between them. */
type Piece = string | { name: string; contactKey: string | null; fallback: string }

/** Flows' texts are few and fixed: each is cut once. Bounded, since agents' instructions and drafts pass here too. */
const MOST_KEPT = 2048
const pieces = new Map<string, Piece[]>()

/**
 * Fills `{{var}}` from the variables and `{{contact.KEY}}` from the contact; an unset or empty
 * value becomes the template's fallback (`{{contact.first_name|there}}`, trimmed) or "".
 * A text is cut at its templates once and kept: a chat turn's answer is a template, and a
 * regular expression's replace per turn cost more than the rest of the engine.
 */
export function renderTemplate(text: string, values: TemplateValues): string {
  if (!text.includes('{{')) return text
  let cut = pieces.get(text)
  if (!cut) {
    if (pieces.size >= MOST_KEPT) pieces.clear()
    cut = piecesOf(text)
    pieces.set(text, cut)
  }
  let filled = ''
  for (const piece of cut) {
    if (typeof piece === 'string') {
      filled += piece
      continue
    }
    const value = piece.contactKey === null ? own(values.variables, piece.name) : piece.contactKey === '' ? undefined : own(values.contact, piece.contactKey)
    const shown = show(value)
    filled += shown === '' ? piece.fallback : shown
  }
  return filled
}

function piecesOf(text: string): Piece[] {
  const cut: Piece[] = []
  let from = 0
  for (const match of text.matchAll(TEMPLATE)) {
    const [whole, name = '', fallback] = match
    if (match.index > from) cut.push(text.slice(from, match.index))
    const dot = name.indexOf('.')
    // A dotted name other than contact.KEY fills nothing (its fallback): contactKey ''.
    const contactKey = dot === -1 ? null : name.slice(0, dot) === 'contact' ? name.slice(dot + 1) : ''
    cut.push({ name, contactKey, fallback: fallback?.trim() ?? '' })
    from = match.index + whole.length
  }
  if (from < text.length) cut.push(text.slice(from))
  return cut
}

// Own properties only: `{{constructor}}` or `{{__proto__}}` must not reach Object.prototype.
function own(record: Record<string, Scalar>, key: string): Scalar | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

function show(value: Scalar | undefined): string {
  return value === undefined ? '' : String(value)
}
