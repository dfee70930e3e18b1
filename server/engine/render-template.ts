import type { Scalar } from './model.ts'

/**
 * `{{name}}` or `{{contact.key}}`, with optional spaces inside the braces. Braces around
 * anything else (`{{ two words }}`, `{{}}`) are not a template and stay as written.
 */
export const TEMPLATE = /\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)?)\s*\}\}/g

export interface TemplateValues {
  variables: Record<string, Scalar>
  contact: Record<string, Scalar>
}

/** Fills `{{var}}` from the variables and `{{contact.KEY}}` from the contact; unknown names become "". */
export function renderTemplate(text: string, values: TemplateValues): string {
  if (!text.includes('{{')) return text
  return text.replace(TEMPLATE, (_, name: string) => {
    const dot = name.indexOf('.')
    if (dot === -1) return show(own(values.variables, name))
    return name.slice(0, dot) === 'contact' ? show(own(values.contact, name.slice(dot + 1))) : ''
  })
}

/** The names a text refers to: for validators that check every `{{var}}` is declared. */
export function templateNames(text: string): string[] {
  return [...text.matchAll(TEMPLATE)].map((found) => found[1] as string)
}

// Own properties only: `{{constructor}}` or `{{__proto__}}` must not reach Object.prototype.
function own(record: Record<string, Scalar>, key: string): Scalar | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

function show(value: Scalar | undefined): string {
  return value === undefined ? '' : String(value)
}
