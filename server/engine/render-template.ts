import { TEMPLATE } from '../flows/template-syntax.ts'
import type { Scalar } from './model.ts'

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

// Own properties only: `{{constructor}}` or `{{__proto__}}` must not reach Object.prototype.
function own(record: Record<string, Scalar>, key: string): Scalar | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

function show(value: Scalar | undefined): string {
  return value === undefined ? '' : String(value)
}
