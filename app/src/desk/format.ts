import type { Content, Conversation } from '../types.ts'

/** "3 min", "2 h 5 min", "4 d": how long since `iso`, for wait times and list rows. */
export function elapsed(iso: string, now: number): string {
  const seconds = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000))
  if (seconds < 60) return `${seconds} s`
  const minutes = Math.floor(seconds / 60)
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

/** One line that stands for a message in a list or a notification: always plain text. */
export function preview(content: Content): string {
  switch (content.kind) {
    case 'text':
    case 'buttons':
    case 'list':
      return content.text
    case 'media':
      return content.media.caption ?? `[${content.media.type}]`
    case 'reply':
      return content.title
    case 'meta_flow':
      return content.cta
  }
}

/** Who the visitor is, as far as the desk knows. */
export function contactName(conversation: Pick<Conversation, 'contact_id' | 'contact'> & { contact_name?: string | null }): string {
  const details = conversation.contact?.details ?? {}
  const named = conversation.contact_name ?? details.name ?? details.email ?? conversation.contact?.external_id
  return typeof named === 'string' && named ? named : `Visitor ${conversation.contact_id.slice(-4)}`
}

export const CHANNEL_NAMES: Record<string, string> = { web: 'Web widget', chatapp: 'Messaging app', 'rest-api': 'REST API' }
