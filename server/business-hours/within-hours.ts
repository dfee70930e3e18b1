import type { Weekday } from './model.ts'

/** A chatbot's hours as the check reads them (parsed once per change). */
export interface Schedule {
  timezone: string
  weekly: Partial<Record<Weekday, { from: string; until: string }[]>>
  holidays: { date: string }[]
}

/**
 * Whether `at` (ms since the epoch) is within the schedule: not on a holiday (its date in the
 * time zone) and within one of that weekday's spans, `from` inclusive, `until` exclusive, in
 * local wall-clock time (so a span keeps its hours across daylight-saving changes). Pure: the
 * clock is the caller's.
 */
export function withinSchedule(schedule: Schedule, at: number): boolean {
  const parts = formatterFor(schedule.timezone).formatToParts(at)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  const date = `${part('year')}-${part('month')}-${part('day')}`
  if (schedule.holidays.some((holiday) => holiday.date === date)) return false
  const day = part('weekday').toLowerCase().slice(0, 3) as Weekday
  const time = `${part('hour')}:${part('minute')}`
  return (schedule.weekly[day] ?? []).some((span) => time >= span.from && time < span.until)
}

/** One formatter per time zone: making one costs far more than using it, and turns ask often. */
const formatters = new Map<string, Intl.DateTimeFormat>()
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** Whether the time zone is one Intl knows. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: name })
    return true
  } catch {
    return false
  }
}
