/**
 * Checks one object against a catalog shape: known keys only, required keys present, each
 * value of an allowed type and enum, new enough for the document's version, and (from 6.0)
 * not blank. Strings with bindings go to the binding rules, conditions to theirs; actions are
 * checked for their shape here and noted for the whole-document rules; the walker descends into
 * child lists.
 */
import { ACTION_SHAPES, ACTION_SINCE } from './action-catalog.ts'
import { MetaCode } from './codes.ts'
import { collectCondition, collectSwitchValue } from './conditionals.ts'
import type { MetaContext, ScreenFacts, Site } from './context.ts'
import { checkDynamicString, scanFreeValue } from './data-binding.ts'
import { type DataType, type JsonObject, hasOwn, isObject, jsonTypeOf, oneOf, token } from './json.ts'
import { checkArrayLimits, checkCharLimit } from './limits.ts'
import { classifyString } from './references.ts'
import { ACTION_NAMES, type ActionName, type PropSpec, type Shape, type ValueType, requiredProps } from './spec.ts'
import { FEATURE_SINCE } from './versions.ts'

export function checkShape(site: Site, value: JsonObject, shape: Shape, path: string): void {
  const { issues } = site.ctx
  for (const key in value) {
    const spec = hasOwn(shape.props, key) ? shape.props[key] : undefined
    const keyPath = `${path}/${token(key)}`
    if (!spec) {
      issues.error(keyPath, MetaCode.INVALID_PROPERTY_KEY, `Property '${key}' is not allowed in ${shape.name}.${suggest(key, shape)} Remove it.`)
      continue
    }
    checkValue(site, value[key], spec, keyPath, key, shape)
  }
  for (const [key, since] of requiredProps(shape)) {
    if (!hasOwn(value, key) && site.ctx.atLeast(since)) {
      issues.error(`${path}/${token(key)}`, MetaCode.MISSING_REQUIRED_TYPE_PROPERTY, `Add the required property '${key}' to ${shape.name}.`)
    }
  }
}

export function checkValue(site: Site, value: unknown, spec: PropSpec, path: string, key: string, owner: Shape): void {
  const { ctx } = site
  if (spec.since !== undefined && !ctx.requireVersion(spec.since, path, `Property '${key}' of ${owner.name}`)) return
  if (spec.role === 'children' || spec.role === 'cases' || spec.role === 'nested') {
    // The walker descends into these; here only the container itself is checked.
    if (!accepts(spec.types, value)) typeError(ctx, path, key, spec.types, value)
    else if (Array.isArray(value)) checkArrayLimits(ctx, value, spec, path, key)
    return
  }
  if (spec.role === 'condition') return collectCondition(site, value, path)
  if (spec.role === 'switch-value') return collectSwitchValue(site, value, path)

  if (typeof value === 'string') {
    const kind = spec.staticOnly || site.screen === null ? null : classifyString(value, ctx.atLeast(FEATURE_SINCE.backtickExpressions))
    if (kind && kind.kind !== 'static') {
      checkDynamicString(ctx, site.screen as ScreenFacts, value, kind, path, expectedTypes(spec.types))
      return
    }
    if (!spec.types.includes('string')) return typeError(ctx, path, key, spec.types, value)
    if (spec.enum && !spec.enum.includes(value)) {
      ctx.issues.error(path, MetaCode.INVALID_ENUM_VALUE, `'${value}' is not a valid value for '${key}'. Use ${oneOf(spec.enum)}.`)
      return
    }
    if (isBlank(value) && ctx.atLeast(FEATURE_SINCE.noBlankStrings)) {
      ctx.issues.error(path, MetaCode.MIN_CHARS_REQUIRED, `'${key}' is blank; from Flow JSON 6.0 text must not be empty or only spaces. Write a value or remove the property.`)
      return
    }
    if (spec.maxChars !== undefined) checkCharLimit(ctx, value.length, () => value, spec, path, key)
    return
  }
  if (!accepts(spec.types, value)) return typeError(ctx, path, key, spec.types, value)

  if (Array.isArray(value)) {
    if (spec.arraySince !== undefined && !ctx.requireVersion(spec.arraySince, path, `A list of texts in '${key}'`)) return
    checkArrayLimits(ctx, value, spec, path, key)
    if (spec.items) for (let i = 0; i < value.length; i++) checkValue(site, value[i], spec.items, `${path}/${i}`, key, owner)
    if (spec.maxChars !== undefined) {
      let total = 0
      for (const item of value) if (typeof item === 'string' && classifyString(item, ctx.atLeast(FEATURE_SINCE.backtickExpressions)).kind === 'static') total += item.length
      checkCharLimit(ctx, total, () => value.filter((item) => typeof item === 'string').join(''), spec, path, key)
    }
    return
  }
  if (isObject(value)) {
    if (spec.role === 'action') return collectAction(site, value, path, key, spec)
    if (spec.role === 'free') return scanFreeValue(site, value, path)
    if (spec.shape) checkShape(site, value, spec.shape, path)
  }
}

/**
 * Every action object met in the schema check: its name and version, whether its property may
 * run it, and its shape; then noted for the whole-document action rules (actions.ts). Kept here
 * because an action's shape holds values that are checked like any other, and back again.
 */
export function collectAction(site: Site, action: JsonObject, path: string, property: string, spec: PropSpec): void {
  const { ctx } = site
  const slot = spec.actions as NonNullable<PropSpec['actions']>
  const name = action.name
  if (name === undefined) {
    ctx.issues.error(`${path}/name`, MetaCode.MISSING_REQUIRED_TYPE_PROPERTY, `Add the action's 'name': ${oneOf(slot.allowed)}.`)
    return
  }
  if (typeof name !== 'string' || !(ACTION_NAMES as readonly string[]).includes(name)) {
    ctx.issues.error(`${path}/name`, MetaCode.INVALID_ENUM_VALUE, `'${String(name)}' is not an action. Use ${oneOf(slot.allowed)}.`)
    return
  }
  const actionName = name as ActionName
  const since = ACTION_SINCE[actionName]
  if (since !== undefined && !ctx.requireVersion(since, `${path}/name`, `The '${actionName}' action`)) return
  if (!slot.allowed.includes(actionName)) {
    reportWrongAction(ctx, actionName, site.owner, property, slot.allowed, slot.otherCode, `${path}/name`)
    return
  }
  checkShape({ ...site, payloadOf: actionName }, action, ACTION_SHAPES[actionName], path)
  ;(site.screen as ScreenFacts).actions.push({ node: action, path, name: actionName, owner: site.owner, property, slot, screen: site.screen as ScreenFacts })
}

function reportWrongAction(
  ctx: MetaContext,
  name: ActionName,
  owner: string,
  property: string,
  allowed: readonly ActionName[],
  otherCode: string | undefined,
  path: string,
): void {
  const instead = `Use ${oneOf(allowed)} here.`
  if (name === 'complete') {
    ctx.issues.error(path, MetaCode.INVALID_COMPLETE_ACTION, `The 'complete' action belongs on a Footer, not on '${property}' of ${owner}. ${instead}`)
  } else if (name === 'open_url') {
    ctx.issues.error(path, MetaCode.INVALID_OPEN_URL_ACTION, `The 'open_url' action works only on EmbeddedLink and OptIn, not on ${owner}. ${instead}`)
  } else if (otherCode === 'INVALID_ON_SELECT_ACTION') {
    ctx.issues.error(path, MetaCode.INVALID_ON_SELECT_ACTION, `'${property}' of ${owner} sends 'data_exchange' only, not '${name}'.`)
  } else {
    ctx.issues.error(path, MetaCode.INVALID_ENUM_VALUE, `'${property}' of ${owner} cannot run '${name}'. ${instead}`)
  }
}

/** Empty or whitespace only; cheap for the usual text that starts with a visible character. */
function isBlank(value: string): boolean {
  return value.length === 0 || (value.charCodeAt(0) <= 32 && value.trim() === '') || (/^\s/.test(value) && value.trim() === '')
}

function accepts(types: readonly ValueType[], value: unknown): boolean {
  const type = jsonTypeOf(value)
  if (type === 'number') return types.includes('number') || (types.includes('integer') && Number.isInteger(value))
  return type !== 'null' && type !== 'undefined' && types.includes(type)
}

function typeError(ctx: MetaContext, path: string, key: string, types: readonly ValueType[], value: unknown): void {
  const found = jsonTypeOf(value)
  const wanted = types.map((type) => (type === 'integer' ? 'whole number' : type))
  const detail = found === 'number' && types.includes('integer') ? 'a fraction' : found
  ctx.issues.error(path, MetaCode.INVALID_PROPERTY_TYPE, `'${key}' must be ${wanted.map(article).join(' or ')}, not ${article(detail)}.`)
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}

export function expectedTypes(types: readonly ValueType[]): DataType[] {
  return types.map((type) => (type === 'integer' ? 'number' : type))
}

function suggest(key: string, shape: Shape): string {
  const normal = key.toLowerCase().replaceAll('_', '-')
  const match = Object.keys(shape.props).find((known) => known.toLowerCase() === normal)
  return match ? ` Did you mean '${match}'?` : ''
}

