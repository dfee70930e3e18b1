import { type DefinitionView, isRecord, objectsIn } from './definition-view.ts'
import type { Findings } from './findings.ts'

/** Conditions that are a whole test on their own: opening hours, a label the conversation carries, the chatbot's business hours. */
const WHOLE_CONDITIONS = ['hours', 'label', 'business_hours'] as const

/**
 * A `branch` entry tests one thing (a variable or a contact detail) one way (`equals` or
 * `set`), or nothing at all: the else, which must come last so the bot always goes on. A
 * variable it tests is declared; an entry after the else is never taken.
 */
export function checkBranches(view: DefinitionView, findings: Findings): void {
  for (const entry of view.states) {
    if (!Array.isArray(entry.state.branch)) continue
    const rules = objectsIn(entry.state.branch)
    let elseAt: string | undefined
    for (const { value: rule, index } of rules) {
      const path = `${entry.path}/branch/${index}`
      if (elseAt) findings.warning(path, 'unreachable_transition', `is never taken: the entry without a condition at ${elseAt} comes first`)
      const whole = WHOLE_CONDITIONS.filter((key) => key in rule)
      if (whole.length > 0) {
        const [first] = whole
        for (const other of [...whole.slice(1), 'var', 'contact', 'equals', 'set'] as const) {
          if (other in rule) findings.error(`${path}/${other}`, 'unknown_key', `"${other}" cannot be combined with "${first}"; an entry tests one thing`)
        }
        if ('hours' in rule) checkHours(rule.hours, `${path}/hours`, findings)
        continue
      }
      const subject = 'var' in rule ? 'var' : 'contact' in rule ? 'contact' : undefined
      const test = 'equals' in rule ? 'equals' : 'set' in rule ? 'set' : undefined
      if ('var' in rule && 'contact' in rule) findings.error(`${path}/contact`, 'unknown_key', '"contact" cannot be combined with "var"; test one of them')
      if ('equals' in rule && 'set' in rule) findings.error(`${path}/set`, 'unknown_key', '"set" cannot be combined with "equals"; keep one of them')
      if (subject && !test) findings.error(`${path}/equals`, 'missing_field', `equals (a value) or set (true or false) is required: what to test ${subject === 'var' ? 'the variable' : 'the contact detail'} for`)
      if (!subject && test) findings.error(`${path}/var`, 'missing_field', `var or contact is required: what ${test} is about`)
      if (subject === 'var' && typeof rule.var === 'string' && !view.variables.has(rule.var) && !findings.hasErrorAt(`${path}/var`)) {
        findings.error(`${path}/var`, 'undeclared_variable', `"${rule.var}" names no declared variable; declare it under /variables`)
      }
      if (!subject && !test) elseAt ??= path
    }
    const last = rules.at(-1)
    if (last && !elseAt) {
      findings.error(`${entry.path}/branch`, 'missing_field', 'the last entry must be {"to": ...} without a condition: where to go when no condition holds')
    }
  }
}

function checkHours(hours: unknown, path: string, findings: Findings): void {
  if (!isRecord(hours)) return
  if (typeof hours.timezone === 'string' && !findings.hasErrorAt(`${path}/timezone`)) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: hours.timezone })
    } catch {
      findings.error(`${path}/timezone`, 'invalid_value', `"${hours.timezone}" is not a time zone; use an IANA name such as Europe/Berlin`)
    }
  }
  if (typeof hours.from === 'string' && typeof hours.until === 'string' && hours.from >= hours.until && !findings.hasErrorAt(`${path}/until`)) {
    findings.error(`${path}/until`, 'invalid_value', `must be after from (${hours.from}); for hours past midnight use two entries`)
  }
}
