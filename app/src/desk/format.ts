import type { ConversationRating, DeskConversation } from '../types.ts'
import { intlTag, t } from '../i18n/language.ts'

/** "45 s", "3 min", "2 h 5 min", "4 d": a duration in seconds, for wait times. */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  if (whole < 60) return t('desk.duration.seconds', { seconds: whole })
  const minutes = Math.floor(whole / 60)
  if (minutes < 60) return t('desk.duration.minutes', { minutes })
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return t('desk.duration.hours', { hours, minutes: minutes % 60 })
  return t('desk.duration.days', { days: Math.floor(hours / 24) })
}

/** A date and time: the time alone for today, else a short date and time, written the way of the language shown. */
export function clock(iso: string): string {
  const date = new Date(iso)
  const today = new Date().toDateString() === date.toDateString()
  const intl = intlTag()
  return today ? date.toLocaleTimeString(intl, { hour: '2-digit', minute: '2-digit' }) : date.toLocaleString(intl, { dateStyle: 'short', timeStyle: 'short' })
}

/** Who the visitor is, as far as the desk knows. */
export function contactName(contact: DeskConversation['contact']): string {
  return contact.name ?? contact.email ?? contact.phone ?? t('desk.visitorNumbered', { number: contact.id.slice(-4) })
}

export const CHANNELS = ['web', 'chatapp', 'rest-api'] as const

/** A channel's name in the language shown; an unknown one as it came. */
export function channelName(channel: string): string {
  return (CHANNELS as readonly string[]).includes(channel) ? t(`desk.channel.${channel as (typeof CHANNELS)[number]}`) : channel
}

/** A visitor's rating as the desk shows it: "★★★★☆ 4/5", "👍 Good", "👎 Bad". */
export function ratingLabel(rating: ConversationRating): string {
  if (rating.scale === 'thumbs') return rating.score === 1 ? t('desk.ratingGood') : t('desk.ratingBad')
  return `${'★'.repeat(rating.score)}${'☆'.repeat(5 - rating.score)} ${rating.score}/5`
}

/** How the desk groups a rating (as the list's filter does): good, neutral or bad. */
export function ratingClass(rating: ConversationRating): 'good' | 'neutral' | 'bad' {
  const good = rating.scale === 'thumbs' ? rating.score === 1 : rating.score >= 4
  const bad = rating.scale === 'thumbs' ? rating.score === 0 : rating.score <= 2
  return good ? 'good' : bad ? 'bad' : 'neutral'
}

/**
 * Who wrote a list row's last message, for the line before its text: You for the signed-in
 * person's own reply (`me`, their display name: an agent message carries the name the
 * visitor saw, not who sent it, so a namesake's reply reads as You too), a colleague's name.
 */
export function senderOf(message: NonNullable<DeskConversation['last_message']>, me: string | null = null): string {
  if (message.role === 'agent') return message.author && message.author === me ? t('desk.sender.you') : (message.author ?? t('desk.sender.agent'))
  return message.role === 'visitor' ? t('desk.sender.visitor') : message.role === 'bot' ? t('desk.sender.bot') : ''
}
