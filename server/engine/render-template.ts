import { TEMPLATE } from '../flows/template-syntax.ts'
import type { Scalar } from './model.ts'

export interface TemplateValues {
  variables: Record<string, Scalar>
  contact: Record<string, Scalar>
}

/**
 * Fills `{{var}}` from the variables and `{{contact.KEY}}` from the contact; an unset or empty
 * value becomes the template's fallback (`{{contact.first_name|there}}`, trimmed) or "".
 */
export function renderTemplate(text: string, values: TemplateValues): string {
  if (!text.includes('{{')) return text
  return text.replace(TEMPLATE, (_, name: string, fallback: string | undefined) => {
    const dot = name.indexOf('.')
    const value =
      dot === -1 ? own(values.variables, name) : name.slice(0, dot) === 'contact' ? own(values.contact, name.slice(dot + 1)) : undefined
    const shown = show(value)
    return shown === '' ? (fallback?.trim() ?? '') : shown
  })
}

// Own properties only: `{{constructor}}` or `{{__proto__}}` must not reach Object.prototype.
function own(record: Record<string, Scalar>, key: string): Scalar | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

function show(value: Scalar | undefined): string {
  return value === undefined ? '' : String(value)
}
