import type { TSchema } from '@sinclair/typebox'
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors'
import { Value } from '@sinclair/typebox/value'
import { ConversationFlow, STATE_NAME_PATTERN, VARIABLE_NAME_PATTERN } from '../../../flow-language/conversation-flow-schema.ts'
import { isRecord } from './definition-view.ts'
import type { Findings } from './findings.ts'

interface SchemaIssue {
  path: string
  code: 'unknown_key' | 'wrong_type' | 'missing_field' | 'invalid_value'
  message: string
}

/**
 * Checks the definition against the TypeBox schema (the exact truth) and reports one plain
 * entry per offending value. Where the schema offers several forms (a message, a transition),
 * the value's distinctive key picks the form it is meant to be, so a buttons message with a
 * typo is told about the typo, not that it "matches no form".
 */
export function checkSchema(definition: unknown, findings: Findings): void {
  const byPath = new Map<string, SchemaIssue>()
  for (const { error, combinedWith } of resolveUnions(Value.Errors(ConversationFlow, definition))) {
    const issue = combinedWith ? combinationIssue(error.path, combinedWith) : describe(error)
    if (!issue) continue
    const known = byPath.get(issue.path)
    // TypeBox reports a missing field twice (missing, then of the wrong type); "missing" says it.
    if (!known || (issue.code === 'missing_field' && known.code !== 'missing_field')) byPath.set(issue.path, issue)
  }
  for (const { path, code, message } of byPath.values()) findings.error(path, code, message)
}

interface ResolvedError {
  error: ValueError
  /** For a key that belongs to another form of the same union: the key that chose this form. */
  combinedWith?: string
}

function* resolveUnions(errors: Iterable<ValueError>): Generator<ResolvedError> {
  for (const error of errors) {
    const intended = error.type === ValueErrorType.Union ? intendedVariant(error) : undefined
    if (!intended) {
      yield { error }
      continue
    }
    for (const resolved of resolveUnions(error.errors[intended.index] ?? [])) {
      const key = resolved.error.path.slice(error.path.length + 1)
      const foreign =
        resolved.error.type === ValueErrorType.ObjectAdditionalProperties &&
        intended.choosingKey !== undefined &&
        intended.otherOwnKeys.has(key)
      yield foreign ? { ...resolved, combinedWith: intended.choosingKey } : resolved
    }
  }
}

interface IntendedVariant {
  index: number
  /** The distinctive key that picked this form, if one did. */
  choosingKey?: string
  /** Distinctive keys of the other forms. */
  otherOwnKeys: Set<string>
}

/**
 * The union member an object is meant to be: the first whose own keys (keys no other member
 * has) it carries, else the first member without own keys (plain text, "always").
 */
function intendedVariant(error: ValueError): IntendedVariant | undefined {
  const members = (error.schema as { anyOf?: TSchema[] }).anyOf ?? []
  if (!isRecord(error.value) || !members.every((member) => member.type === 'object' && isRecord(member.properties))) return undefined
  const keysOf = members.map((member) => Object.keys(member.properties as object))
  const ownKeys = keysOf.map((keys, index) => keys.filter((key) => keysOf.every((other, at) => at === index || !other.includes(key))))
  const value = error.value
  const claimed = ownKeys.findIndex((keys) => keys.some((key) => key in value))
  const plain = ownKeys.findIndex((keys) => keys.length === 0)
  const index = claimed >= 0 ? claimed : Math.max(plain, 0)
  return {
    index,
    choosingKey: claimed >= 0 ? ownKeys[claimed]?.find((key) => key in value) : undefined,
    otherOwnKeys: new Set(ownKeys.flatMap((keys, at) => (at === index ? [] : keys))),
  }
}

function combinationIssue(path: string, choosingKey: string): SchemaIssue {
  return { path, code: 'unknown_key', message: `"${lastToken(path)}" cannot be combined with "${choosingKey}"; keep one of them` }
}

function describe(error: ValueError): SchemaIssue | undefined {
  const { path } = error
  const schema = error.schema as Record<string, unknown>
  switch (error.type) {
    case ValueErrorType.ObjectRequiredProperty:
      return { path, code: 'missing_field', message: `${lastToken(path)} is required` }
    case ValueErrorType.ObjectAdditionalProperties:
      // Keys of `states` and `variables` are names; the name rules explain those.
      if (isRecord(schema.patternProperties)) return undefined
      return { path, code: 'unknown_key', message: `"${lastToken(path)}" is not a known field here` }
    case ValueErrorType.Object:
      return { path, code: 'wrong_type', message: path === '' ? 'the flow definition must be a JSON object' : 'must be an object' }
    case ValueErrorType.Array:
      return { path, code: 'wrong_type', message: 'must be an array' }
    case ValueErrorType.String:
      return { path, code: 'wrong_type', message: 'must be a string' }
    case ValueErrorType.Number:
    case ValueErrorType.Integer:
      return { path, code: 'wrong_type', message: 'must be a number' }
    case ValueErrorType.Boolean:
      return { path, code: 'wrong_type', message: 'must be a boolean' }
    case ValueErrorType.Literal:
      return { path, code: 'invalid_value', message: literalMessage(path, schema.const) }
    case ValueErrorType.StringMinLength:
      return { path, code: 'invalid_value', message: 'must not be empty' }
    case ValueErrorType.StringMaxLength:
      return { path, code: 'invalid_value', message: `must be at most ${schema.maxLength} characters` }
    case ValueErrorType.StringPattern:
      return { path, code: 'invalid_value', message: patternMessage(String(schema.pattern)) }
    case ValueErrorType.ArrayMinItems:
      return { path, code: 'invalid_value', message: 'must not be empty' }
    case ValueErrorType.ObjectMinProperties:
      return { path, code: 'invalid_value', message: path === '/states' ? 'must hold at least one state' : 'must not be empty' }
    case ValueErrorType.Union:
      return describeUnion(error)
    default:
      return { path, code: 'invalid_value', message: error.message }
  }
}

function describeUnion(error: ValueError): SchemaIssue {
  const members = ((error.schema as { anyOf?: TSchema[] }).anyOf ?? []) as TSchema[]
  if (members.every((member) => 'const' in member)) {
    const choices = members.map((member) => JSON.stringify(member.const)).join(', ')
    return { path: error.path, code: 'invalid_value', message: `must be one of ${choices}` }
  }
  if (members.every((member) => member.type === 'object')) {
    return { path: error.path, code: 'wrong_type', message: 'must be an object' }
  }
  const types = [...new Set(members.map((member) => String(member.type)))]
  return { path: error.path, code: 'wrong_type', message: `must be a ${types.join(', a ').replace(/, a ([^,]*)$/, ' or a $1')}` }
}

function literalMessage(path: string, value: unknown): string {
  if (path === '/version') return 'must be 1, the only version of the conversation format so far'
  if (path.endsWith('/end')) return 'must be true (leave end out when the state does not end the conversation)'
  return `must be ${JSON.stringify(value)}`
}

function patternMessage(pattern: string): string {
  if (pattern === STATE_NAME_PATTERN) {
    return 'is not a state name: a letter or _, then letters, digits, _ or -, at most 64 characters'
  }
  if (pattern === VARIABLE_NAME_PATTERN) {
    return 'is not a variable name: a letter or _, then letters, digits or _, at most 64 characters'
  }
  if (pattern === '^https?://') return 'must be an absolute http:// or https:// URL'
  return `must match the pattern ${pattern}`
}

function lastToken(path: string): string {
  const token = path.slice(path.lastIndexOf('/') + 1)
  return token.replaceAll('~1', '/').replaceAll('~0', '~')
}
