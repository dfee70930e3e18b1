/**
 * Bindings: `${data.x}` must be declared with a matching type, `${form.x}` must name an input
 * of its screen, `${screen.S.…}` must name another existing screen, a value is either static
 * or one binding or (from 6.0) a backtick expression, never a mix.
 *
 * Bindings are recorded while the tree is walked and resolved once every screen is known.
 */
import { MetaCode } from './codes.ts'
import { COMPONENTS } from './component-catalog.ts'
import type { DataField, InputFact, MetaContext, RefFact, ScreenFacts, Site } from './context.ts'
import { ExpressionError, parseBacktickExpression, refsOf } from './expressions.ts'
import { type DataType, type JsonObject, MAX_DEPTH, hasOwn, isObject, jsonTypeOf, keysOf, listSome, token } from './json.ts'
import { type ParsedRef, type StringKind, classifyString } from './references.ts'
import type { ActionName } from './spec.ts'
import { FEATURE_SINCE } from './versions.ts'

/** A string that is not static: a binding, an expression, or a forbidden mix. */
export function checkDynamicString(
  ctx: MetaContext,
  screen: ScreenFacts,
  value: string,
  kind: Exclude<StringKind, { kind: 'static' }>,
  path: string,
  expected: readonly DataType[] | null,
  payloadOf: ActionName | null = null,
): void {
  if (kind.kind === 'mixed') {
    ctx.issues.error(
      path,
      MetaCode.MIXED_STATIC_AND_DYNAMIC_VALUE,
      `'${shorten(value)}' mixes fixed text with a binding. Use the binding alone (e.g. "\${data.greeting}")${
        ctx.atLeast(FEATURE_SINCE.backtickExpressions) ? ", or a backtick expression such as \"`'Hello ' ${data.name}`\"" : ''
      }.`,
    )
    return
  }
  if (kind.kind === 'binding') {
    recordRef(ctx, screen, kind.ref, value, path, expected, payloadOf)
    return
  }
  if (!ctx.requireVersion(FEATURE_SINCE.backtickExpressions, path, 'A backtick expression')) return
  try {
    for (const found of refsOf(parseBacktickExpression(kind.body))) recordRef(ctx, screen, found.ref, found.text, path, null, payloadOf)
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error
    ctx.issues.error(path, MetaCode.INVALID_EXPRESSION, `The backtick expression '${shorten(value)}' is not valid: ${error.message}`)
  }
}

/** Records every binding inside a value whose keys are the author's (payloads, init-values). */
export function scanFreeValue(site: Site, value: unknown, path: string, depth = 0): void {
  if (site.screen === null) return
  if (typeof value === 'string') {
    const kind = classifyString(value, site.ctx.atLeast(FEATURE_SINCE.backtickExpressions))
    if (kind.kind !== 'static') checkDynamicString(site.ctx, site.screen, value, kind, path, null, site.payloadOf ?? null)
    return
  }
  if (typeof value !== 'object' || value === null) return
  if (depth >= MAX_DEPTH) {
    site.ctx.issues.error(path, MetaCode.INVALID_FLOW_JSON, `This value is nested more than ${MAX_DEPTH} levels deep, which no flow needs. Flatten it.`)
    return
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) scanFreeValue(site, value[i], `${path}/${i}`, depth + 1)
  } else {
    for (const key in value) scanFreeValue(site, (value as JsonObject)[key], `${path}/${token(key)}`, depth + 1)
  }
}

export function recordRef(
  ctx: MetaContext,
  screen: ScreenFacts,
  ref: ParsedRef | null,
  text: string,
  path: string,
  expected: readonly DataType[] | null,
  payloadOf: ActionName | null,
): void {
  if (ref === null) {
    ctx.issues.error(
      path,
      MetaCode.INVALID_SCREEN_DYNAMIC_DATA,
      `'${shorten(text)}' is not a binding Flow JSON knows. Write \${data.field}, \${form.input}${
        ctx.atLeast(FEATURE_SINCE.globalBindings) ? ', ${screen.SCREEN_ID.data.field} or ${screen.SCREEN_ID.form.input}' : ''
      }.`,
    )
    return
  }
  if (ref.screen !== null && !ctx.requireVersion(FEATURE_SINCE.globalBindings, path, `The binding ${ref.text} to another screen`)) return
  screen.refs.push({ ref, path, expected, screen, payloadOf })
}

/** Reports every binding that names nothing, or something of the wrong type. */
export function resolveRefs(ctx: MetaContext): void {
  for (const screen of ctx.screens) for (const fact of screen.refs) resolveRef(ctx, fact)
}

function resolveRef(ctx: MetaContext, fact: RefFact): void {
  const { ref, path, screen } = fact
  const target = targetScreen(ctx, fact)
  if (!target) return
  const where = target === screen ? 'this screen' : `screen '${target.id}'`
  if (ref.scope === 'form') {
    if (target.inputs.has(ref.field)) return
    const form = target.formsByName.get(ref.field)
    ctx.issues.error(
      path,
      MetaCode.INVALID_ON_CLICK_ACTION_PAYLOAD,
      form
        ? `${ref.text} names the Form itself; bind one of its inputs instead (${listSome(namesOf(form.inputs), form.inputs.length) || 'it has none'}).`
        : `${ref.text} names no input on ${where}. Use the name of one of its inputs${target.inputs.size ? ` (${listSome(target.inputs.keys(), target.inputs.size)})` : ''}.`,
    )
    return
  }
  const field = target.data.get(ref.field)
  if (!field) {
    ctx.issues.error(
      path,
      MetaCode.INVALID_SCREEN_DYNAMIC_DATA,
      `${ref.text} is not declared in the data of ${where}. Declare '${ref.field}' under "data" with a type and an __example__, or fix the name.`,
    )
    return
  }
  const resolved = descend(field, ref.rest)
  if (isProblem(resolved)) {
    ctx.issues.error(path, MetaCode.INVALID_SCREEN_DYNAMIC_DATA, `${ref.text} does not exist: ${resolved.problem}`)
    return
  }
  if (fact.expected && resolved !== null && !fact.expected.includes(resolved)) {
    ctx.issues.error(
      path,
      MetaCode.INVALID_SCREEN_DYNAMIC_DATA,
      `${ref.text} is declared as ${resolved}, but this property needs ${fact.expected.join(' or ')}. Change the declared type or bind another field.`,
    )
  }
}

/** The screen a binding reads from; reports a missing or self-referencing `${screen.S…}`. */
function targetScreen(ctx: MetaContext, fact: RefFact): ScreenFacts | null {
  const { ref, screen } = fact
  if (ref.screen === null) return screen
  const target = ctx.screensById.get(ref.screen)
  if (!target) {
    ctx.issues.error(fact.path, MetaCode.INVALID_SCREEN_REFERENCE, `${ref.text} names screen '${ref.screen}', which does not exist. Use the id of an existing screen.`)
    return null
  }
  if (target === screen) {
    ctx.issues.error(
      fact.path,
      MetaCode.INVALID_SCREEN_REFERENCE,
      `${ref.text} points at the screen it is on. Write \${${ref.scope}.${[ref.field, ...ref.rest].join('.')}} instead.`,
    )
    return null
  }
  return target
}

function* namesOf(inputs: InputFact[]): Generator<string> {
  for (const input of inputs) yield input.name
}

interface Problem {
  readonly problem: string
}

function isProblem(value: DataType | null | Problem): value is Problem {
  return typeof value === 'object' && value !== null
}

/** The type at `rest` below a declared field (null: not declared); a problem when the path does not exist. */
function descend(field: DataField, rest: readonly string[]): DataType | null | Problem {
  let schema: JsonObject = field.schema
  let type: DataType | null = field.type
  for (const key of rest) {
    if (type !== 'object') return { problem: `'${key}' is read from a ${type ?? 'value'} that has no properties.` }
    const properties = schema.properties
    if (!isObject(properties)) return null
    const next = hasOwn(properties, key) ? properties[key] : undefined
    if (!isObject(next)) return { problem: `'${key}' is not among the declared properties (${listSome(keysOf(properties), null)}).` }
    schema = next
    type = typeof next.type === 'string' ? (next.type as DataType) : null
  }
  return type
}

/** The input a binding reads, when it reads one (no reporting: that is resolveRefs' job). */
export function inputOf(ctx: MetaContext, screen: ScreenFacts, ref: ParsedRef): InputFact | null {
  if (ref.scope !== 'form') return null
  const target = ref.screen === null ? screen : ctx.screensById.get(ref.screen)
  return target?.inputs.get(ref.field) ?? null
}

/** The types a binding can yield, or null when unknown (no reporting). */
export function refTypes(ctx: MetaContext, screen: ScreenFacts, ref: ParsedRef | null): readonly DataType[] | null {
  if (ref === null) return null
  if (ref.scope === 'form') {
    const input = inputOf(ctx, screen, ref)
    return input ? (COMPONENTS[input.type]?.input?.valueTypes(input.node) ?? null) : null
  }
  const target = ref.screen === null ? screen : ctx.screensById.get(ref.screen)
  const field = target?.data.get(ref.field)
  if (!field) return null
  const resolved = descend(field, ref.rest)
  return isProblem(resolved) || resolved === null ? null : [resolved]
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text
}


/** The types a payload or init value has: its JSON type, or what its binding yields; null when unknown. */
export function valueTypesOf(ctx: MetaContext, screen: ScreenFacts, value: unknown): readonly DataType[] | null {
  if (typeof value === 'string') {
    const kind = classifyString(value, ctx.atLeast(FEATURE_SINCE.backtickExpressions))
    if (kind.kind === 'static') return ['string']
    return kind.kind === 'binding' ? refTypes(ctx, screen, kind.ref) : null
  }
  const type = jsonTypeOf(value)
  return type === 'null' || type === 'undefined' ? null : [type]
}
