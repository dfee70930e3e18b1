import { type BranchRule, WEEKDAYS } from '../flow-language/conversation-flow-schema.ts'
import type { Scalar } from './model.ts'
import { sameText } from './read-answer.ts'
import { labelKey } from '../labels/label-key.ts'

/** What a turn knows besides variables and contact details: the conversation's labels, the chatbot's hours. */
export interface BranchFacts {
  labels: ReadonlySet<string>
  withinBusinessHours: boolean
}

/**
 * The first entry of a `branch` whose condition holds, with its index: `equals` compares the
 * variable's or contact detail's value as text, trimmed and ignoring case (so the number 3
 * equals "3"); `set` asks whether it holds a value that is not blank; an entry without a
 * condition always holds; `label` asks whether the conversation carries a label of that name (any
 * case); `business_hours` whether the turn is within the chatbot's hours (true) or outside them
 * (false). Undefined only for a branch the validator would refuse.
 */
export function pickBranch(
  branch: BranchRule[],
  variables: Record<string, Scalar>,
  contact: Record<string, Scalar>,
  now?: number,
  facts: BranchFacts = { labels: new Set(), withinBusinessHours: true },
): { index: number; to: string } | undefined {
  const index = branch.findIndex((rule) => {
    if (rule.hours) return now !== undefined && withinHours(rule.hours, now)
    if (rule.label !== undefined) return facts.labels.has(labelKey(rule.label))
    if (rule.business_hours !== undefined) return rule.business_hours === facts.withinBusinessHours
    return holds(rule, variables, contact)
  })
  const rule = branch[index]
  return rule ? { index, to: rule.to } : undefined
}

function holds(rule: BranchRule, variables: Record<string, Scalar>, contact: Record<string, Scalar>): boolean {
  const subject = rule.var !== undefined ? ownValue(variables, rule.var) : rule.contact !== undefined ? ownValue(contact, rule.contact) : undefined
  if (rule.var === undefined && rule.contact === undefined) return true
  const isSet = subject !== undefined && String(subject).trim() !== ''
  if (rule.set !== undefined) return rule.set === isSet
  if (rule.equals !== undefined) return isSet && sameText(String(subject)) === sameText(String(rule.equals))
  return false
}

/** The value under that key, never something inherited from Object.prototype. */
function ownValue(values: Record<string, Scalar>, key: string): Scalar | undefined {
  return Object.hasOwn(values, key) ? values[key] : undefined
}

/** Whether `now` falls on one of the days, from `from` (inclusive) to `until` (exclusive), in the time zone. */
export function withinHours(hours: NonNullable<BranchRule['hours']>, now: number): boolean {
  let parts: Intl.DateTimeFormatPart[]
  try {
    parts = new Intl.DateTimeFormat('en-GB', { timeZone: hours.timezone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now)
  } catch {
    return false
  }
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  const day = part('weekday').toLowerCase().slice(0, 3) as (typeof WEEKDAYS)[number]
  const time = `${part('hour')}:${part('minute')}`
  return hours.days.includes(day) && time >= hours.from && time < hours.until
}
