import type { VisitorInput } from '../../conversations/service.ts'
import { cut, LIMITS } from './cloud-api-limits.ts'
import { isRecord, type ProviderMessage } from './read-webhook.ts'

/** A provider message as Parley stores it and the engine reads it. */
export interface InboundContent {
  content: VisitorInput['content']
  /** Nothing for the flow to answer (a reaction): stored for agents, not fed to the bot. */
  notAnAnswer: boolean
  /** A completed meta flow: the fields it returned. */
  formResponse: Record<string, unknown> | null
  /** The provider message this one answers or reacts to, when it says. */
  inReplyTo: string | null
  /**
   * A picture, document or sticker the provider keeps under `id`: fetched and stored as an
   * attachment when it can be; `content` (the text `[image] caption`) is what is stored when not.
   */
  media?: InboundMedia
}

export interface InboundMedia {
  id: string
  /** The provider's message type. */
  type: 'image' | 'document' | 'sticker'
  /** The document's name, when it gave one. */
  filename: string | null
  caption: string | null
}

/**
 * Text stays text; a button or list pick is a reply (id and title), so `{button}` and `{row}`
 * transitions work; a completed meta flow is a text starting with `[form` that lists its
 * fields (the parsed fields are kept for agents); everything else (media, location,
 * contacts, stickers, orders, reactions, unsupported types) becomes a readable text such as
 * `[image] caption`, so agents see it and a flow can match it.
 */
export function readInboundMessage(message: ProviderMessage): InboundContent {
  const context = isRecord(message.context) && typeof message.context.id === 'string' ? message.context.id : null
  const text = (value: string, formResponse: Record<string, unknown> | null = null): InboundContent => ({
    content: { kind: 'text', text: cut(value, LIMITS.text) },
    notAnAnswer: false,
    formResponse,
    inReplyTo: context,
  })
  const body = record(message[message.type])

  switch (message.type) {
    case 'text':
      return text(str(body.body) || '[empty message]')
    case 'interactive':
      return interactive(body, context) ?? text('[interactive message]')
    case 'button': {
      // A quick-reply button of a template message.
      const id = str(body.payload) || str(body.text)
      return id ? { content: { kind: 'reply', reply_to: 'button', id, title: str(body.text) || id }, notAnAnswer: false, formResponse: null, inReplyTo: context } : text('[button]')
    }
    case 'image':
      return withMedia(text(labelled(message.type, str(body.caption))), 'image', body)
    case 'video':
      return text(labelled(message.type, str(body.caption)))
    case 'document': {
      const name = str(body.filename)
      return withMedia(text(labelled(name ? `document: ${name}` : 'document', str(body.caption))), 'document', body)
    }
    case 'audio':
      return text(body.voice === true ? '[voice message]' : '[audio]')
    case 'sticker':
      // A still sticker is a WebP picture; an animated one is kept as text (its frames would not be checked).
      return body.animated === true ? text('[animated sticker]') : withMedia(text('[sticker]'), 'sticker', body)
    case 'location':
      return text(location(body))
    case 'contacts':
      return text(labelled('contacts', contacts(message.contacts)))
    case 'order':
      return text(order(body))
    case 'reaction': {
      const emoji = str(body.emoji)
      const target = str(body.message_id) || null
      return { content: { kind: 'text', text: emoji ? `[reaction ${emoji}]` : '[reaction removed]' }, notAnAnswer: true, formResponse: null, inReplyTo: target }
    }
    case 'unsupported': {
      const what = str(record(message.unsupported).type)
      return text(what ? `[unsupported message: ${what}]` : '[unsupported message]')
    }
    default:
      return text(`[${message.type} message]`)
  }
}

/** The message with the provider's media id, when the body names one. */
function withMedia(read: InboundContent, type: InboundMedia['type'], body: Record<string, unknown>): InboundContent {
  const id = str(body.id)
  return id ? { ...read, media: { id, type, filename: str(body.filename) || null, caption: str(body.caption) || null } } : read
}

function interactive(body: Record<string, unknown>, context: string | null): InboundContent | null {
  const pick = (kind: 'button_reply' | 'list_reply', replyTo: 'button' | 'row'): InboundContent | null => {
    const reply = record(body[kind])
    const id = str(reply.id)
    if (!id) return null
    return { content: { kind: 'reply', reply_to: replyTo, id, title: str(reply.title) || id }, notAnAnswer: false, formResponse: null, inReplyTo: context }
  }
  if (body.type === 'button_reply') return pick('button_reply', 'button')
  if (body.type === 'list_reply') return pick('list_reply', 'row')
  if (body.type === 'nfm_reply') {
    const reply = record(body.nfm_reply)
    const response = parseResponse(reply.response_json)
    const fields = Object.entries(response ?? {}).filter(([key]) => key !== 'flow_token')
    const shown = fields.map(([key, value]) => `${key}: ${scalarText(value)}`).join(', ')
    const head = `[form${str(reply.name) && str(reply.name) !== 'flow' ? ` ${str(reply.name)}` : ''}]`
    return { content: { kind: 'text', text: cut(shown ? `${head} ${shown}` : head, LIMITS.text) }, notAnAnswer: false, formResponse: response, inReplyTo: context }
  }
  return null
}

function location(body: Record<string, unknown>): string {
  const place = [str(body.name), str(body.address)].filter(Boolean).join(', ')
  const { latitude, longitude } = body
  const point = typeof latitude === 'number' && typeof longitude === 'number' ? `(${latitude}, ${longitude})` : ''
  return labelled('location', [place, point].filter(Boolean).join(' '))
}

function contacts(shared: unknown): string {
  if (!Array.isArray(shared)) return ''
  return shared
    .filter(isRecord)
    .map((contact) => {
      const name = str(record(contact.name).formatted_name) || str(record(contact.name).first_name)
      const phones = (Array.isArray(contact.phones) ? contact.phones : []).filter(isRecord).map((phone) => str(phone.phone) || str(phone.wa_id)).filter(Boolean)
      return [name, ...phones].filter(Boolean).join(' ')
    })
    .filter(Boolean)
    .join('; ')
}

function order(body: Record<string, unknown>): string {
  const items = (Array.isArray(body.product_items) ? body.product_items : []).filter(isRecord).map((item) => {
    const price = typeof item.item_price === 'number' ? ` (${item.item_price}${str(item.currency) ? ` ${str(item.currency)}` : ''})` : ''
    return `${typeof item.quantity === 'number' ? item.quantity : 1} × ${str(item.product_retailer_id) || 'item'}${price}`
  })
  return labelled('order', [items.join(', '), str(body.text)].filter(Boolean).join(' — '))
}

/** A completed flow's response_json: the fields the form returned, or null when it is not a JSON object. */
function parseResponse(json: unknown): Record<string, unknown> | null {
  if (typeof json !== 'string') return null
  try {
    const parsed: unknown = JSON.parse(json)
    return isRecord(parsed) ? parsed : null
  } catch {
    return null
  }
}

function scalarText(value: unknown): string {
  if (typeof value === 'string') return value
  if (Array.isArray(value)) return value.map(scalarText).join(' / ')
  return JSON.stringify(value) ?? ''
}

const labelled = (label: string, detail: string) => (detail ? `[${label}] ${detail}` : `[${label}]`)
const record = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {})
const str = (value: unknown): string => (typeof value === 'string' ? value.trim() : '')
