/**
 * Character and count limits, min ≤ max pairs, and the Footer caption combinations. The
 * numbers themselves live in the component catalog.
 */
import { MetaCode } from './codes.ts'
import { COMPONENTS } from './component-catalog.ts'
import type { MetaContext } from './context.ts'
import { type JsonObject, charLength, isObject } from './json.ts'
import type { PropSpec } from './spec.ts'

/** Dropdown options may carry images; then at most this many. */
const DROPDOWN_MAX_OPTIONS_WITH_IMAGES = 100

export function checkCharLimit(ctx: MetaContext, utf16Length: number, text: () => string, spec: PropSpec, path: string, key: string): void {
  const limit = spec.maxChars as number
  if (utf16Length <= limit) return
  const length = charLength(text())
  if (length <= limit) return
  const message = `'${key}' is ${length} characters long; the limit is ${limit}. Shorten it.`
  if (spec.maxCharsIsWarning) ctx.issues.warning(path, MetaCode.MAXIMUM_VALUE_REQUIRED, message)
  else ctx.issues.error(path, MetaCode.MAXIMUM_VALUE_REQUIRED, message)
}

export function checkArrayLimits(ctx: MetaContext, value: unknown[], spec: PropSpec, path: string, key: string): void {
  if (spec.minItems !== undefined && value.length < spec.minItems) {
    ctx.issues.error(path, MetaCode.MIN_ITEMS_REQUIRED, `'${key}' needs at least ${spec.minItems} item${spec.minItems === 1 ? '' : 's'}. Add one.`)
  } else if (spec.maxItems !== undefined && value.length > spec.maxItems) {
    ctx.issues.error(path, MetaCode.MAXIMUM_VALUE_REQUIRED, `'${key}' has ${value.length} items; the limit is ${spec.maxItems}. Remove some.`)
  }
}

/** Rules that look at several properties of one component at once. */
export function checkComponentLimits(ctx: MetaContext, type: string, component: JsonObject, path: string): void {
  for (const [minKey, maxKey, kind] of COMPONENTS[type]?.minMax ?? []) {
    const min = comparable(component[minKey], kind)
    const max = comparable(component[maxKey], kind)
    if (min !== null && max !== null && min > max) {
      ctx.issues.error(
        `${path}/${minKey}`,
        MetaCode.MIN_VALUE_GREATER_THAN_MAX,
        `'${minKey}' (${String(component[minKey])}) is greater than '${maxKey}' (${String(component[maxKey])}) in ${type}. Lower '${minKey}' or raise '${maxKey}'.`,
      )
    }
  }
  if (type === 'Footer') checkFooterCaptions(ctx, component, path)
  if (type === 'Dropdown') checkDropdownImages(ctx, component, path)
}

/** A number, or a date as milliseconds; null when dynamic, missing or unreadable. */
function comparable(value: unknown, kind: 'number' | 'date'): number | null {
  if (kind === 'number') return typeof value === 'number' ? value : null
  if (typeof value !== 'string' || value.includes('${')) return null
  // Dates are written either as a timestamp in milliseconds or as YYYY-MM-DD.
  if (/^\d+$/.test(value)) return Number(value)
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const time = Date.parse(`${value}T00:00:00Z`)
    return Number.isNaN(time) ? null : time
  }
  return null
}

function checkFooterCaptions(ctx: MetaContext, footer: JsonObject, path: string): void {
  const left = footer['left-caption'] !== undefined
  const center = footer['center-caption'] !== undefined
  const right = footer['right-caption'] !== undefined
  if (center && (left || right)) {
    ctx.issues.error(
      `${path}/center-caption`,
      MetaCode.INVALID_DEPENDENCIES,
      "A Footer shows either 'center-caption' alone or 'left-caption' and 'right-caption' together. Remove 'center-caption' or the side captions.",
    )
  } else if (left !== right) {
    const missing = left ? 'right-caption' : 'left-caption'
    ctx.issues.error(
      `${path}/${missing}`,
      MetaCode.INVALID_DEPENDENCIES,
      `'left-caption' and 'right-caption' go together. Add '${missing}' or use 'center-caption' alone.`,
    )
  }
}

function checkDropdownImages(ctx: MetaContext, dropdown: JsonObject, path: string): void {
  const options = dropdown['data-source']
  if (!Array.isArray(options) || options.length <= DROPDOWN_MAX_OPTIONS_WITH_IMAGES) return
  if (!options.some((option) => isObject(option) && option.image !== undefined)) return
  ctx.issues.error(
    `${path}/data-source`,
    MetaCode.MAXIMUM_VALUE_REQUIRED,
    `A Dropdown whose options have images takes at most ${DROPDOWN_MAX_OPTIONS_WITH_IMAGES} options; this one has ${options.length}. Remove options or their images.`,
  )
}
