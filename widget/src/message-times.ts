import type { WidgetTexts } from '../../server/protocol/widget-texts/en.ts'

/** A gap this long between two messages starts a new group, with its own time label. */
export const GROUP_GAP_MS = 5 * 60_000

interface Timed {
  id: string
  created_at: string
}

/**
 * Time labels for the message log: one above the first message of each group (the first
 * message, and any that comes five minutes or more after the one before). Recent times read
 * as "Just now" or "12 min ago", today's as the local clock time, older ones with the day:
 * all in the widget's language, through Intl (`locale`), "Just now" from its catalogue.
 */
export function timeLabels(messages: readonly Timed[], now: number, locale: string | undefined, texts: Pick<WidgetTexts, 'just_now'>): Map<string, string> {
  const labels = new Map<string, string>()
  let previous = Number.NEGATIVE_INFINITY
  for (const message of messages) {
    const at = Date.parse(message.created_at)
    if (Number.isNaN(at)) continue
    if (at - previous >= GROUP_GAP_MS) labels.set(message.id, describeTime(at, now, locale, texts))
    previous = at
  }
  return labels
}

/** One moment, relative when that reads better, else in the visitor's local time. */
export function describeTime(at: number, now: number, locale: string | undefined, texts: Pick<WidgetTexts, 'just_now'>): string {
  const ago = now - at
  if (ago < 60_000) return texts.just_now
  if (ago < 60 * 60_000) return relative(locale, 'short').format(-Math.floor(ago / 60_000), 'minute')
  const time = new Date(at).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
  const days = dayNumber(now) - dayNumber(at)
  if (days === 0) return time
  if (days === 1) return `${capitalized(relative(locale, 'long').format(-1, 'day'), locale)} ${time}`
  const sameYear = new Date(at).getFullYear() === new Date(now).getFullYear()
  const date = new Date(at).toLocaleDateString(locale, { weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) })
  return `${date}, ${time}`
}

function relative(locale: string | undefined, style: 'short' | 'long'): Intl.RelativeTimeFormat {
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style })
}

/** "yesterday" starts a label: "Yesterday 23:59" (scripts without case are left as they are). */
function capitalized(text: string, locale: string | undefined): string {
  return text.charAt(0).toLocaleUpperCase(locale) + text.slice(1)
}

/** Local calendar days since the epoch (so "yesterday" follows the visitor's clock, not UTC). */
function dayNumber(at: number): number {
  const date = new Date(at)
  return Math.floor(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()) / 86_400_000)
}

/**
 * The visitor's message that carries "Seen": the newest of the conversation's visitor
 * messages that the team has read (ids sort in the order messages were stored).
 */
export function seenMessageId(messages: readonly (Timed & { role: string; conversation_id: string })[], conversationId: string | undefined, readUpTo: string | null | undefined): string | null {
  if (!conversationId || !readUpTo) return null
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!
    if (message.conversation_id === conversationId && message.role === 'visitor' && message.id <= readUpTo) return message.id
  }
  return null
}
