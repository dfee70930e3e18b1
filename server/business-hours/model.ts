import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'

export const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
export type Weekday = (typeof WEEK)[number]

const Time = (description: string) => t.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$|^24:00$', description, examples: ['09:00'] })
const Span = t.Object(
  { from: Time('HH:MM, inclusive'), until: Time('HH:MM, exclusive, after from; 24:00 for the end of the day') },
  { additionalProperties: false },
)
const DaySpans = t.Array(Span, { maxItems: 4, description: 'the day’s open spans; none or absent: closed all day' })

export const BusinessHoursBody = t.Object(
  {
    timezone: t.String({ minLength: 1, maxLength: 64, description: 'an IANA time zone, such as Europe/Berlin', examples: ['Europe/Berlin'] }),
    weekly: t.Object(
      { mon: t.Optional(DaySpans), tue: t.Optional(DaySpans), wed: t.Optional(DaySpans), thu: t.Optional(DaySpans), fri: t.Optional(DaySpans), sat: t.Optional(DaySpans), sun: t.Optional(DaySpans) },
      { additionalProperties: false, description: 'open spans per weekday; a day left out is closed' },
    ),
    holidays: t.Optional(
      t.Array(
        t.Object(
          {
            date: t.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'YYYY-MM-DD, in the time zone: closed all day', examples: ['2026-12-25'] }),
            name: t.Optional(t.String({ maxLength: 80 })),
          },
          { additionalProperties: false },
        ),
        { maxItems: 200 },
      ),
    ),
    closed_text: t.Optional(
      t.Union([t.String({ minLength: 1, maxLength: 500 }), t.Null()], {
        description: 'said when a visitor is handed off outside the hours, before the widget asks for their e-mail; a default when absent',
      }),
    ),
  },
  { additionalProperties: false },
)
export type BusinessHoursBody = Static<typeof BusinessHoursBody>

export const BusinessHours = t.Object({
  timezone: t.String(),
  weekly: t.Record(t.String(), t.Array(t.Object({ from: t.String(), until: t.String() }))),
  holidays: t.Array(t.Object({ date: t.String(), name: t.Optional(t.String()) })),
  closed_text: t.Union([t.String(), t.Null()]),
  updated_at: Timestamp,
})
export type BusinessHours = Static<typeof BusinessHours>

export const BusinessHoursAnswer = t.Object({
  hours: t.Union([BusinessHours, t.Null()], { description: 'null: none set, always open' }),
  open_now: t.Boolean({ description: 'whether it is within the hours now' }),
})
export const ChatbotParams = t.Object({ chatbot_id: t.String() })
