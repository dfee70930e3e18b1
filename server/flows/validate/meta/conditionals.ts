/**
 * If and Switch: conditions that read something dynamic, yield a boolean and never compare two
 * literals; If nested at most 3 deep; `then` and `cases` not empty; Footers in both branches of
 * an If or in every case of a Switch, or in none.
 */
import { MetaCode } from './codes.ts'
import type { MetaContext, ScreenFacts, Site } from './context.ts'
import { recordRef, refTypes } from './data-binding.ts'
import { ExpressionError, literalOnlyOperation, parseCondition, refsOf, typeOf } from './expressions.ts'
import { type JsonObject, jsonTypeOf, token } from './json.ts'
import { classifyString } from './references.ts'

export const MAX_IF_NESTING = 3

export function collectCondition(site: Site, value: unknown, path: string): void {
  const { ctx } = site
  const screen = site.screen as ScreenFacts
  if (typeof value !== 'string') {
    ctx.issues.error(path, MetaCode.INVALID_PROPERTY_TYPE, `'condition' must be a string expression such as "\${data.is_member} && (\${form.age} > 18)", not ${jsonTypeOf(value)}.`)
    return
  }
  // Conditions are expressions already; tolerate an author wrapping one in backticks.
  const source = value.length >= 2 && value.startsWith('`') && value.endsWith('`') ? value.slice(1, -1) : value
  let expression
  try {
    expression = parseCondition(source)
  } catch (error) {
    if (!(error instanceof ExpressionError)) throw error
    ctx.issues.error(path, MetaCode.INVALID_IF_CONDITION, `The condition is not a valid expression: ${error.message}`)
    return
  }
  const refs = refsOf(expression)
  if (refs.length === 0) {
    ctx.issues.error(path, MetaCode.INVALID_IF_CONDITION, 'The condition only has fixed values, so it never changes. Make it read a binding such as ${data.flag} or ${form.choice}.')
    return
  }
  const literalOnly = literalOnlyOperation(expression)
  if (literalOnly) {
    ctx.issues.error(
      path,
      MetaCode.INVALID_IF_CONDITION,
      `'${(literalOnly.left as { text: string }).text} ${literalOnly.op} ${(literalOnly.right as { text: string }).text}' compares two fixed values. Compare a binding with a value instead.`,
    )
    return
  }
  for (const ref of refs) recordRef(ctx, screen, ref.ref, ref.text, path, null, null)
  screen.conditions.push({ expression, path })
}

/** After the walk, when every binding's type is known: a condition must yield a boolean. */
export function checkConditionTypes(ctx: MetaContext): void {
  for (const screen of ctx.screens) {
    for (const condition of screen.conditions) {
      const type = typeOf(condition.expression, (ref) => refTypes(ctx, screen, ref))
      if (type !== null && type !== 'boolean') {
        ctx.issues.error(
          condition.path,
          MetaCode.INVALID_IF_CONDITION,
          `The condition yields a ${type}, not true or false. Compare it (e.g. "== 'yes'", "> 0") or bind a boolean.`,
        )
      }
    }
  }
}

export function collectSwitchValue(site: Site, value: unknown, path: string): void {
  const kind = typeof value === 'string' ? classifyString(value) : null
  if (kind?.kind !== 'binding' || kind.ref === null) {
    site.ctx.issues.error(path, MetaCode.INVALID_SWITCH_VALUE, "A Switch 'value' must be one binding, such as \"${form.choice}\" or \"${data.status}\", whose value picks the case.")
    return
  }
  recordRef(site.ctx, site.screen as ScreenFacts, kind.ref, value as string, path, null, null)
}

export function checkIfNesting(ctx: MetaContext, depth: number, path: string): void {
  if (depth > MAX_IF_NESTING) {
    ctx.issues.error(path, MetaCode.MAXIMUM_IF_NESTING, `If components nest at most ${MAX_IF_NESTING} deep; this one is at depth ${depth}. Combine conditions with && instead.`)
  }
}

export function checkIfFooters(ctx: MetaContext, component: JsonObject, path: string, thenHasFooter: boolean, elseHasFooter: boolean): void {
  if (thenHasFooter === elseHasFooter) return
  const missing = thenHasFooter ? 'else' : 'then'
  const detail = missing === 'else' && component.else === undefined ? "Add an 'else' branch with its own Footer" : `Add a Footer to '${missing}'`
  ctx.issues.error(
    `${path}/${missing}`,
    MetaCode.MISSING_FOOTER_IN_IF_ELSE_BRANCHES,
    `A Footer inside an If must be in both branches, so the screen always has one. ${detail}, or move the Footer out of the If.`,
  )
}

export function checkSwitchFooters(ctx: MetaContext, path: string, casesWithFooter: Map<string, boolean>): void {
  const values = [...casesWithFooter.values()]
  if (!values.includes(true) || !values.includes(false)) return
  for (const [key, hasFooter] of casesWithFooter) {
    if (!hasFooter) {
      ctx.issues.error(
        `${path}/cases/${token(key)}`,
        MetaCode.MISSING_FOOTER_IN_SWITCH_BRANCHES,
        `Case '${key}' has no Footer while other cases do. Give every case a Footer, or none and put one after the Switch.`,
      )
    }
  }
}

export function reportEmptyCases(ctx: MetaContext, path: string): void {
  ctx.issues.error(`${path}/cases`, MetaCode.EMPTY_SWITCH_CASES, "A Switch needs at least one case in 'cases'. Add one, or remove the Switch.")
}
