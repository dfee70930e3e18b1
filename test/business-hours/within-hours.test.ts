import { expect, test } from 'bun:test'
import { withinSchedule } from '../../server/business-hours/within-hours.ts'

const berlin = {
  timezone: 'Europe/Berlin',
  weekly: { mon: [{ from: '09:00', until: '12:00' }, { from: '13:00', until: '17:30' }], sat: [{ from: '10:00', until: '24:00' }] },
  holidays: [{ date: '2026-12-28' }],
}
const open = (iso: string) => withinSchedule(berlin, Date.parse(iso))

test('spans are local wall-clock time, from inclusive, until exclusive; a day without spans is closed', () => {
  // Monday 2026-03-02, Berlin is UTC+1.
  expect(open('2026-03-02T08:00:00.000Z')).toBe(true)
  expect(open('2026-03-02T07:59:59.000Z')).toBe(false)
  expect(open('2026-03-02T11:00:00.000Z')).toBe(false) // 12:00, the lunch break
  expect(open('2026-03-02T16:29:00.000Z')).toBe(true)
  expect(open('2026-03-02T16:30:00.000Z')).toBe(false)
  expect(open('2026-03-03T10:00:00.000Z')).toBe(false) // Tuesday
  expect(open('2026-03-07T22:59:00.000Z')).toBe(true) // Saturday 23:59, until 24:00
})

test('a span keeps its local hours across the change to summer time', () => {
  // Monday 2026-03-30, Berlin is UTC+2: 09:00 local is 07:00 UTC.
  expect(open('2026-03-30T07:00:00.000Z')).toBe(true)
  expect(open('2026-03-30T06:59:00.000Z')).toBe(false)
})

test('a holiday is closed all day, by its date in the time zone', () => {
  // Monday 2026-12-28 is a holiday; 23:30 UTC on Sunday 27th is 00:30 on the 28th in Berlin.
  expect(open('2026-12-28T09:00:00.000Z')).toBe(false)
  expect(withinSchedule({ ...berlin, weekly: { sun: [{ from: '00:00', until: '24:00' }], mon: [{ from: '00:00', until: '24:00' }] } }, Date.parse('2026-12-27T23:30:00.000Z'))).toBe(false)
  expect(open('2027-01-04T09:00:00.000Z')).toBe(true)
})
