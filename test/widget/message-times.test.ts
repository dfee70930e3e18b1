import { describe, expect, test } from 'bun:test'
import { EN_TEXTS } from '../../server/protocol/widget-texts/en.ts'
import { describeTime, seenMessageId, timeLabels } from '../../widget/src/message-times.ts'

const at = (local: string) => new Date(local).getTime()
const NOW = at('2026-11-23T15:30:00')
const message = (id: string, local: string, role = 'bot', conversation_id = 'c1') => ({ id, created_at: new Date(local).toISOString(), role, conversation_id })

describe('time labels of the message log', () => {
  test('recent times are relative; today is the local clock; yesterday and older name the day', () => {
    expect(describeTime(NOW - 20_000, NOW, 'en-GB', EN_TEXTS)).toBe('Just now')
    expect(describeTime(NOW - 12 * 60_000 - 5_000, NOW, 'en-GB', EN_TEXTS)).toBe('12 min ago')
    expect(describeTime(at('2026-11-23T09:05:00'), NOW, 'en-GB', EN_TEXTS)).toBe('09:05')
    expect(describeTime(at('2026-11-23T09:05:00'), NOW, 'en-US', EN_TEXTS)).toBe('09:05 AM')
    expect(describeTime(at('2026-11-22T23:59:00'), NOW, 'en-GB', EN_TEXTS)).toBe('Yesterday 23:59')
    expect(describeTime(at('2026-11-20T08:00:00'), NOW, 'en-GB', EN_TEXTS)).toBe('Fri 20 Nov, 08:00')
    expect(describeTime(at('2025-12-31T08:00:00'), NOW, 'en-GB', EN_TEXTS)).toBe('Wed, 31 Dec 2025, 08:00')
  })

  test("in the widget's language: relative times and days through Intl, 'Just now' from its catalogue", async () => {
    const es = await Bun.file(new URL('../../server/protocol/widget-texts/es.json', import.meta.url)).json()
    expect(describeTime(NOW - 20_000, NOW, 'es', es)).toBe('Ahora mismo')
    expect(describeTime(NOW - 12 * 60_000, NOW, 'es', es)).toBe('hace 12 min')
    expect(describeTime(at('2026-11-22T23:59:00'), NOW, 'es', es)).toBe('Ayer 23:59')
    expect(describeTime(NOW - 5 * 60_000, NOW, 'ja', EN_TEXTS)).toBe('5 分前')
    expect(describeTime(at('2026-11-22T23:59:00'), NOW, 'de', EN_TEXTS)).toBe('Gestern 23:59')
  })

  test('a label opens each group: the first message and any after a gap of five minutes or more', () => {
    const labels = timeLabels(
      [
        message('a', '2026-11-23T09:00:00'),
        message('b', '2026-11-23T09:01:00'),
        message('c', '2026-11-23T09:05:59'),
        message('d', '2026-11-23T09:10:59'),
        message('e', '2026-11-23T15:29:50'),
      ],
      NOW,
      'en-GB',
      EN_TEXTS,
    )
    expect([...labels]).toEqual([
      ['a', '09:00'],
      ['d', '09:10'],
      ['e', 'Just now'],
    ])
  })

  test('a message with an unreadable time gets no label and does not break the groups', () => {
    expect([...timeLabels([{ id: 'x', created_at: 'soon' }, message('a', '2026-11-23T15:00:00')], NOW, 'en-GB', EN_TEXTS)]).toEqual([['a', '30 min ago']])
  })
})

describe('the "Seen" mark', () => {
  const log = [
    message('01', '2026-11-23T09:00:00', 'visitor', 'c0'),
    message('02', '2026-11-23T09:00:00', 'bot'),
    message('03', '2026-11-23T09:01:00', 'visitor'),
    message('04', '2026-11-23T09:02:00', 'bot'),
    message('05', '2026-11-23T09:03:00', 'visitor'),
  ]

  test('goes on the newest visitor message of the conversation that the team has read', () => {
    expect(seenMessageId(log, 'c1', '04')).toBe('03')
    expect(seenMessageId(log, 'c1', '05')).toBe('05')
  })

  test('is nowhere before anything was read, or when only another conversation was', () => {
    expect(seenMessageId(log, 'c1', null)).toBe(null)
    expect(seenMessageId(log, 'c1', '02')).toBe(null)
    expect(seenMessageId(log, undefined, '05')).toBe(null)
  })
})
