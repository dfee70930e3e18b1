import { t } from '../../i18n/language.ts'

/**
 * "Try it" for an MCP tool: a form drawn from the tool's input schema (JSON Schema, as the
 * server lists it). Strings, numbers, integers, booleans and enums get inputs of their own;
 * any other property (an array, an object, a union) is typed as JSON in a box of its own, and
 * a schema that is not an object of properties is typed as JSON whole.
 */

export type FieldKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'json'

export interface ToolField {
  name: string
  kind: FieldKind
  required: boolean
  description: string | null
  /** enum: the allowed values, as the schema gives them. */
  options?: (string | number | boolean)[]
  /** What the input starts with: the schema's default, as text. */
  initial: string
}

/** The fields of the form, or null when the schema is not an object with properties (typed as JSON whole). */
export function toolFields(schema: Record<string, unknown>): ToolField[] | null {
  const properties = schema.properties
  if (schema.type !== 'object' || !properties || typeof properties !== 'object' || Array.isArray(properties)) return null
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [])
  return Object.entries(properties as Record<string, unknown>).map(([name, raw]) => {
    const property = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {}
    const kind = kindOf(property)
    const options = kind === 'enum' ? (property.enum as (string | number | boolean)[]) : undefined
    return {
      name,
      kind,
      required: required.has(name),
      description: typeof property.description === 'string' ? property.description : typeof property.title === 'string' ? property.title : null,
      ...(options ? { options } : {}),
      initial: initialText(kind, property.default),
    }
  })
}

function kindOf(property: Record<string, unknown>): FieldKind {
  if (Array.isArray(property.enum) && property.enum.length > 0 && property.enum.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) return 'enum'
  switch (property.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return property.type
    default:
      return 'json'
  }
}

function initialText(kind: FieldKind, value: unknown): string {
  if (value === undefined) return ''
  if (kind === 'json') return JSON.stringify(value, null, 2)
  return String(value)
}

/** The typed values (text per field) as the call's arguments, or why they cannot be: the field named. */
export function toolArguments(fields: ToolField[], values: Record<string, string>): { ok: true; arguments: Record<string, unknown> } | { ok: false; error: string } {
  const args: Record<string, unknown> = {}
  for (const field of fields) {
    const text = values[field.name] ?? field.initial
    const empty = text.trim() === ''
    if (empty && field.kind !== 'string') {
      if (field.required) return { ok: false, error: `${field.name}: is required` }
      continue
    }
    if (empty && !field.required) continue
    switch (field.kind) {
      case 'string':
        args[field.name] = text
        break
      case 'number':
      case 'integer': {
        const number = Number(text.trim())
        if (!Number.isFinite(number)) return { ok: false, error: `${field.name}: must be a number` }
        if (field.kind === 'integer' && !Number.isInteger(number)) return { ok: false, error: `${field.name}: must be a whole number` }
        args[field.name] = number
        break
      }
      case 'boolean':
        args[field.name] = text === 'true'
        break
      case 'enum': {
        const option = (field.options ?? []).find((candidate) => String(candidate) === text)
        if (option === undefined) return { ok: false, error: `${field.name}: must be one of ${(field.options ?? []).join(', ')}` }
        args[field.name] = option
        break
      }
      case 'json':
        try {
          args[field.name] = JSON.parse(text)
        } catch (failure) {
          return { ok: false, error: `${field.name}: is not JSON (${(failure as Error).message})` }
        }
    }
  }
  return { ok: true, arguments: args }
}

/** Arguments typed as JSON whole (a schema the form cannot draw): an object, or why not. */
export function jsonArguments(text: string): { ok: true; arguments: Record<string, unknown> } | { ok: false; error: string } {
  let parsed: unknown
  try {
    parsed = JSON.parse(text.trim() === '' ? '{}' : text)
  } catch (failure) {
    return { ok: false, error: t('tool.notJson', { reason: (failure as Error).message }) }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, error: t('tool.notObject') }
  return { ok: true, arguments: parsed as Record<string, unknown> }
}
