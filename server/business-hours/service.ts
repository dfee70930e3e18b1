import { answeredNow } from '../db/answered-now.ts'
import type { Units } from '../db/units.ts'
import { invalidField, notFound } from '../http/api-error.ts'
import type { Caller } from '../people/session-auth.ts'
import type { Clock } from '../support/clock.ts'
import { type BusinessHours, type BusinessHoursBody, WEEK } from './model.ts'
import type { BusinessHoursRow, BusinessHoursStore } from './store.ts'
import { isTimeZone, type Schedule, withinSchedule } from './within-hours.ts'

export interface BusinessHoursDeps {
  stores: { businessHours: BusinessHoursStore }
  units: Units<{ businessHours: BusinessHoursStore }>
  now: Clock
}

export type BusinessHoursService = ReturnType<typeof businessHoursService>

const toHours = (row: BusinessHoursRow): BusinessHours => ({
  timezone: row.timezone,
  weekly: JSON.parse(row.weekly),
  holidays: JSON.parse(row.holidays),
  closed_text: row.closed_text,
  updated_at: row.updated_at,
})

/** What a schema cannot say: the time zone is one, spans end after they start, dates are real. */
function check(body: BusinessHoursBody): void {
  if (!isTimeZone(body.timezone)) throw invalidField('/timezone', `"${body.timezone}" is not a time zone; use an IANA name such as Europe/Berlin`)
  for (const day of WEEK) {
    for (const [index, span] of (body.weekly[day] ?? []).entries()) {
      if (span.until <= span.from) throw invalidField(`/weekly/${day}/${index}/until`, `must be after from (${span.from}); for hours past midnight use the next day too`)
    }
  }
  for (const [index, holiday] of (body.holidays ?? []).entries()) {
    const parsed = new Date(`${holiday.date}T00:00:00Z`)
    if (Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== holiday.date) throw invalidField(`/holidays/${index}/date`, 'is not a date')
  }
}

/**
 * A chatbot's business hours: set, read and removed through the API, and asked by the
 * synchronous turn whether it is open (`openAt`, from a schedule kept in memory: parsed once
 * per change, read from the store on a miss with `answeredNow` until the turn awaits, wave 2).
 */
export function businessHoursService({ stores, units, now }: BusinessHoursDeps) {
  /** chatbot id → its schedule, or null for none (always open). */
  const kept = new Map<string, { schedule: Schedule | null; closedText: string | null }>()

  function keptOf(chatbotId: string) {
    let found = kept.get(chatbotId)
    if (!found) {
      const row = answeredNow(stores.businessHours.get(chatbotId))
      found = row ? { schedule: { timezone: row.timezone, weekly: JSON.parse(row.weekly), holidays: JSON.parse(row.holidays) }, closedText: row.closed_text } : { schedule: null, closedText: null }
      kept.set(chatbotId, found)
    }
    return found
  }

  async function chatbot(caller: Caller, chatbotId: string): Promise<void> {
    if (!(await stores.businessHours.chatbotInWorkspace(caller.workspaceId, chatbotId))) throw notFound('chatbot')
  }

  return {
    async get(caller: Caller, chatbotId: string): Promise<{ hours: BusinessHours | null; open_now: boolean }> {
      await chatbot(caller, chatbotId)
      const row = await stores.businessHours.get(chatbotId)
      const hours = row ? toHours(row) : null
      return { hours, open_now: hours ? withinSchedule(hours, Date.parse(now())) : true }
    },

    async put(caller: Caller, chatbotId: string, body: BusinessHoursBody) {
      await chatbot(caller, chatbotId)
      check(body)
      const weekly = Object.fromEntries(WEEK.flatMap((day) => (body.weekly[day]?.length ? [[day, body.weekly[day]]] : [])))
      const row: BusinessHoursRow = {
        chatbot_id: chatbotId,
        timezone: body.timezone,
        weekly: JSON.stringify(weekly),
        holidays: JSON.stringify(body.holidays ?? []),
        closed_text: body.closed_text ?? null,
        updated_at: now(),
      }
      await units.unit((tx) => tx.businessHours.put(row))
      kept.delete(chatbotId)
      const hours = toHours(row)
      return { hours, open_now: withinSchedule(hours, Date.parse(row.updated_at)) }
    },

    async remove(caller: Caller, chatbotId: string): Promise<void> {
      await chatbot(caller, chatbotId)
      const removed = await units.unit((tx) => tx.businessHours.remove(chatbotId))
      kept.delete(chatbotId)
      if (!removed) throw notFound('business hours')
    },

    /** Whether the chatbot is open at `at` (ISO): always, without hours. For the synchronous turn. */
    openAt(chatbotId: string, at: string): boolean {
      const { schedule } = keptOf(chatbotId)
      return schedule === null || withinSchedule(schedule, Date.parse(at))
    },

    /** What the handoff says outside the hours: the chatbot's own text, or null for the default. */
    closedText: (chatbotId: string): string | null => keptOf(chatbotId).closedText,

    /** A deleted chatbot's hours are gone with it. */
    forget: (chatbotId: string) => void kept.delete(chatbotId),
  }
}
