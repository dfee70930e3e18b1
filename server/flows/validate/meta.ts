/**
 * The `meta` flow validator: a WhatsApp Flow JSON document checked against every rule of
 * the reference (docs/meta-flows.md lists them with their codes). Pure: no I/O.
 *
 * One pass indexes the screens, one walk per screen checks each component and records what
 * the cross-screen rules need (bindings, inputs, actions), and those rules then run over the
 * records, never over the tree again.
 */
import { checkActions } from './meta/actions.ts'
import { MetaCode } from './meta/codes.ts'
import { LAYOUT_SHAPE } from './meta/component-catalog.ts'
import { checkConditionTypes } from './meta/conditionals.ts'
import { MetaContext } from './meta/context.ts'
import { resolveRefs } from './meta/data-binding.ts'
import { checkDocument } from './meta/document.ts'
import { checkForms } from './meta/forms.ts'
import { isObject, nestsDeeperThan } from './meta/json.ts'
import { checkRouting } from './meta/routing.ts'
import { checkShape } from './meta/schema.ts'
import { SCREEN_SHAPE, checkScreenCounts, checkScreenRules, indexScreens } from './meta/screens.ts'
import { walkScreen } from './meta/walk.ts'
import type { ValidationReport } from './validation-issue.ts'

export type { ValidationIssue, ValidationReport } from './validation-issue.ts'

/** Far beyond any real document; checked first so that nothing below recurses without bound. */
const MAX_DOCUMENT_DEPTH = 1000

/** The provider's limit on a document, in bytes of its JSON text. */
export const MAX_FLOW_JSON_BYTES = 10 * 1024 * 1024

export function validateMetaFlow(definition: unknown): ValidationReport {
  if (!isObject(definition)) {
    return only(MetaCode.INVALID_FLOW_JSON, 'A meta flow must be a Flow JSON object with "version" and "screens".')
  }
  if (nestsDeeperThan(definition, MAX_DOCUMENT_DEPTH)) {
    return only(MetaCode.INVALID_FLOW_JSON, `The flow nests objects and arrays more than ${MAX_DOCUMENT_DEPTH} levels deep, which no Flow JSON document needs. Flatten it.`)
  }
  const size = serializedBytes(definition)
  if (size === null) return only(MetaCode.INVALID_FLOW_JSON, 'The flow cannot be written as JSON.')
  if (size > MAX_FLOW_JSON_BYTES) {
    return only(MetaCode.FLOW_JSON_TOO_LARGE, `The flow is ${size} bytes of JSON; the limit is ${MAX_FLOW_JSON_BYTES} bytes (10 MB). Split it into smaller flows.`)
  }

  const ctx = new MetaContext()
  indexScreens(ctx, checkDocument(ctx, definition))
  for (const screen of ctx.screens) {
    const site = { ctx, screen, owner: 'screen' }
    checkShape(site, screen.node, SCREEN_SHAPE, screen.path)
    const layout = screen.node.layout
    if (!isObject(layout)) continue
    checkShape(site, layout, LAYOUT_SHAPE, `${screen.path}/layout`)
    checkScreenCounts(ctx, walkScreen(ctx, screen, layout.children, `${screen.path}/layout/children`))
  }
  resolveRefs(ctx)
  checkConditionTypes(ctx)
  checkActions(ctx)
  for (const screen of ctx.screens) checkForms(ctx, screen)
  checkScreenRules(ctx)
  checkRouting(ctx, definition)
  return ctx.issues.report()
}

function only(code: MetaCode, message: string): ValidationReport {
  return { errors: [{ path: '', code, message }], warnings: [] }
}

/** Bytes of the document's JSON text; null when it has none (a value JSON cannot hold). */
function serializedBytes(definition: object): number | null {
  let json: string
  try {
    json = JSON.stringify(definition)
  } catch {
    return null
  }
  // UTF-8 takes at most three bytes per UTF-16 unit: small documents need no exact count.
  if (json.length * 3 <= MAX_FLOW_JSON_BYTES) return json.length
  return Buffer.byteLength(json, 'utf8')
}
