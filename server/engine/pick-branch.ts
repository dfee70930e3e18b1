import { type BranchRule, WEEKDAYS } from '../flow-language/conversation-flow-schema.ts'
import type { Scalar } from './model.ts'
import { sameText } from './read-answer.ts'

/**
 * The first entry of a `branch` whose condition holds, with its index: `equals` compares the
 * variable's or contact detail's value as text, trimmed and ignoring case (so the number 3
 * equals "3"); `set` asks whether it holds a value that is not blank; an entry without a
 * condition always holds. Undefined only for a branch the validator would refuse.
 */
export function pickBranch(
  branch: BranchRule[],
  variables: Record<string, Scalar>,
  contact: Record<string, Scalar>,
  now?: number,
): { index: number; to: string } | undefined {
  const index = branch.findIndex((rule) => (rule.hours ? now !== undefined && withinHours(rule.hours, now) : holds(rule, variables, contact)))
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
