import type { ConversationRating, DeskConversation } from '../types.ts'

/** "45 s", "3 min", "2 h 5 min", "4 d": a duration in seconds, for wait times. */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  if (whole < 60) return `${whole} s`
  const minutes = Math.floor(whole / 60)
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return `${hours} h ${minutes % 60} min`
  return `${Math.floor(hours / 24)} d`
}

export function clock(iso: string): string {
  const date = new Date(iso)
  const today = new Date().toDateString() === date.toDateString()
  return today ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : date.toLocaleString([], { dateStyle: 'short', timeStyle: 'short' })
}

/** Who the visitor is, as far as the desk knows. */
export function contactName(contact: DeskConversation['contact']): string {
  return contact.name ?? contact.email ?? contact.phone ?? `Visitor ${contact.id.slice(-4)}`
}

export const CHANNEL_NAMES: Record<string, string> = { web: 'Web widget', chatapp: 'Messaging app', 'rest-api': 'REST API' }

/** A visitor's rating as the desk shows it: "★★★★☆ 4/5", "👍 Good", "👎 Bad". */
export function ratingLabel(rating: ConversationRating): string {
  if (rating.scale === 'thumbs') return rating.score === 1 ? '👍 Good' : '👎 Bad'
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
  if (message.role === 'agent') return message.author && message.author === me ? 'You' : (message.author ?? 'Agent')
  return message.role === 'visitor' ? 'Visitor' : message.role === 'bot' ? 'Bot' : ''
}
