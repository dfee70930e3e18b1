import { Value } from '@sinclair/typebox/value'
import type { TSchema } from '@sinclair/typebox'
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors'
import type { FieldError } from './api-error.ts'

/**
 * Turns TypeBox's errors into one plain-language entry per offending field. A schema may
 * carry its own wording in `error` (a string, or `{path, message}` where the path is lost,
 * as with coerced query parameters).
 */
export function describeSchemaErrors(errors: Iterable<ValueError>): FieldError[] {
  const byPath = new Map<string, FieldError>()
  for (const error of errors) {
    for (const described of describeOne(error)) if (!byPath.has(described.path)) byPath.set(described.path, described)
  }
  return [...byPath.values()]
}

function describeOne(error: ValueError): FieldError[] {
  const custom = (error.schema as { error?: unknown }).error
  if (typeof custom === 'string') return [{ path: error.path, message: custom }]
  if (isPathMessage(custom)) return [{ path: custom.path, message: custom.message }]
  if (error.type === ValueErrorType.Union) return describeUnion(error)
  return [{ path: error.path, message: messageFor(error) }]
}

function isPathMessage(value: unknown): value is { path: string; message: string } {
  return typeof value === 'object' && value !== null && 'path' in value && 'message' in value
}

function describeUnion(error: ValueError): FieldError[] {
  const members = ((error.schema as { anyOf?: TSchema[] }).anyOf ?? []) as TSchema[]
  const literals = members.filter((member) => 'const' in member).map((member) => member.const)
  // Elysia's t.Integer adds a numeric-string member for coercion; explain the number rule instead.
  const rest = members.filter(
    (member) => !('const' in member) && member.type !== 'null' && !(member.type === 'string' && typeof member.format === 'string'),
  )
  const nullable = members.some((member) => member.type === 'null')
  if (rest.length === 0 && literals.length > 0) {
    const choices = literals.map((value) => JSON.stringify(value)).join(', ')
    return [{ path: error.path, message: `must be one of: ${choices}${nullable ? ', or null' : ''}` }]
  }
  if (rest.length === 1 && literals.length === 0) {
    // Nullable<X> or Optional-like unions: explain every failure against X itself (each bad
    // item of a nullable list, not only the first).
    const inner = [...Value.Errors(rest[0] as TSchema, error.value)]
    if (inner.length > 0) {
      return inner.flatMap((innerError) =>
        describeOne({ ...innerError, path: error.path + innerError.path }).map((described) =>
          nullable && innerError.path === '' ? { ...described, message: `${described.message}, or null` } : described,
        ),
      )
    }
  }
  return [{ path: error.path, message: 'does not match any allowed form' }]
}

function messageFor(error: ValueError): string {
  const schema = error.schema as Record<string, unknown>
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return 'is required'
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not an allowed field'
    case ValueErrorType.String:
      return 'must be a string'
    case ValueErrorType.Number:
      return 'must be a number'
    case ValueErrorType.Integer:
      return 'must be an integer'
    case ValueErrorType.Boolean:
      return 'must be a boolean'
    case ValueErrorType.Object:
      return error.path === '' ? 'the body must be a JSON object' : 'must be an object'
    case ValueErrorType.Array:
      return 'must be an array'
    case ValueErrorType.Null:
      return 'must be null'
    case ValueErrorType.Literal:
      return `must be ${JSON.stringify(schema.const)}`
    case ValueErrorType.StringMinLength:
      return schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`
    case ValueErrorType.StringMaxLength:
      return `must be at most ${schema.maxLength} characters`
    case ValueErrorType.StringPattern:
      // A schema may word its pattern alone, keeping the plain words for its lengths.
      return typeof schema.patternError === 'string' ? schema.patternError : `must match the pattern ${schema.pattern}`
    case ValueErrorType.StringFormat:
      return `must be a valid ${schema.format}`
    case ValueErrorType.NumberMaximum:
    case ValueErrorType.IntegerMaximum:
      return `must be at most ${schema.maximum}`
    case ValueErrorType.NumberMinimum:
    case ValueErrorType.IntegerMinimum:
      return `must be at least ${schema.minimum}`
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${schema.maxItems} items`
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${schema.minItems} item${schema.minItems === 1 ? '' : 's'}`
    case ValueErrorType.ArrayUniqueItems:
      return 'must not contain duplicates'
    case ValueErrorType.ObjectMaxProperties:
      return `must have at most ${schema.maxProperties} fields`
    case ValueErrorType.ObjectMinProperties:
      return `must have at least ${schema.minProperties} field${schema.minProperties === 1 ? '' : 's'}`
    default:
      return error.message
  }
}
