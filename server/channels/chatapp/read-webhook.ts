/**
 * The provider's webhook body (WhatsApp Cloud API) read into what Parley acts on: each
 * message and each status report, with the business number it arrived for, and every part
 * it does not use with the reason. Pure and total: any JSON value gives an answer, never an
 * exception, since the provider adds fields and types over time.
 */

/** A message object as the provider sends it (only the fields Parley reads are typed). */
export type ProviderMessage = Record<string, unknown> & { id: string; from: string; type: string }

export interface MessageEvent {
  kind: 'message'
  path: string
  phoneNumberId: string
  message: ProviderMessage
  /** The sender's profile name, from the change's `contacts`. */
  profileName: string | null
}

export interface StatusEvent {
  kind: 'status'
  path: string
  phoneNumberId: string
  wamid: string
  status: string
  /** The provider's timestamp (seconds), as ISO 8601; null when it sent none. */
  at: string | null
  errors: ProviderErrorEntry[] | null
}

export interface ProviderErrorEntry {
  code: number | null
  title: string | null
  message: string | null
  details: string | null
}

export interface IgnoredPart {
  kind: 'ignored'
  path: string
  reason: string
}

export type WebhookEvent = MessageEvent | StatusEvent | IgnoredPart

const OBJECT = 'whatsapp_business_account'

export function readWebhook(body: unknown): WebhookEvent[] {
  if (!isRecord(body)) return [ignored('', 'the body is not a JSON object')]
  if (body.object !== OBJECT) return [ignored('/object', `object is ${JSON.stringify(body.object ?? null)}, not "${OBJECT}"`)]
  if (!Array.isArray(body.entry)) return [ignored('/entry', 'entry is not a list')]
  const events: WebhookEvent[] = []
  body.entry.forEach((entry, e) => {
    const changes = isRecord(entry) ? entry.changes : undefined
    if (!Array.isArray(changes)) return void events.push(ignored(`/entry/${e}`, 'the entry has no list of changes'))
    changes.forEach((change, c) => events.push(...readChange(change, `/entry/${e}/changes/${c}`)))
  })
  return events
}

function readChange(change: unknown, path: string): WebhookEvent[] {
  if (!isRecord(change)) return [ignored(path, 'the change is not an object')]
  if (change.field !== 'messages') return [ignored(`${path}/field`, `the field ${JSON.stringify(change.field ?? null)} is not one Parley handles (only "messages")`)]
  const value = change.value
  if (!isRecord(value)) return [ignored(`${path}/value`, 'the change has no value')]
  const phoneNumberId = isRecord(value.metadata) ? value.metadata.phone_number_id : undefined
  if (typeof phoneNumberId !== 'string') return [ignored(`${path}/value/metadata`, 'the change names no phone_number_id')]
  const at = `${path}/value`
  const names = profileNames(value.contacts)
  const events: WebhookEvent[] = []
  list(value.messages).forEach((message, m) => {
    const where = `${at}/messages/${m}`
    if (!isRecord(message) || !nonEmpty(message.id) || !nonEmpty(message.from) || !nonEmpty(message.type)) {
      return void events.push(ignored(where, 'the message has no id, sender or type'))
    }
    events.push({ kind: 'message', path: where, phoneNumberId, message: message as ProviderMessage, profileName: names.get(message.from as string) ?? null })
  })
  list(value.statuses).forEach((status, s) => {
    const where = `${at}/statuses/${s}`
    if (!isRecord(status) || !nonEmpty(status.id) || !nonEmpty(status.status)) {
      return void events.push(ignored(where, 'the status report has no message id or status'))
    }
    events.push({ kind: 'status', path: where, phoneNumberId, wamid: status.id as string, status: status.status as string, at: isoOf(status.timestamp), errors: errorsOf(status.errors) })
  })
  // Errors the provider reports about the number or the app, not about one message.
  list(value.errors).forEach((error, x) => {
    const [entry] = errorsOf([error]) ?? []
    events.push(ignored(`${at}/errors/${x}`, `the provider reported an error: ${entry ? describeProviderError(entry) : 'unreadable'}`))
  })
  if (events.length === 0) events.push(ignored(at, 'the change carries no messages or statuses'))
  return events
}

/** The provider's seconds-since-epoch timestamp (a string of digits) as ISO 8601; null otherwise. */
export function isoOf(timestamp: unknown): string | null {
  const seconds = typeof timestamp === 'string' && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : typeof timestamp === 'number' ? timestamp : Number.NaN
  return Number.isFinite(seconds) && seconds >= 0 ? new Date(seconds * 1000).toISOString() : null
}

export function errorsOf(errors: unknown): ProviderErrorEntry[] | null {
  if (!Array.isArray(errors) || errors.length === 0) return null
  return errors.filter(isRecord).map((error) => ({
    code: typeof error.code === 'number' ? error.code : null,
    title: typeof error.title === 'string' ? error.title : null,
    message: typeof error.message === 'string' ? error.message : null,
    details: isRecord(error.error_data) && typeof error.error_data.details === 'string' ? error.error_data.details : null,
  }))
}

export function describeProviderError(error: ProviderErrorEntry): string {
  const head = [error.code ?? 'error', error.title ?? error.message].filter((part) => part !== null).join(' ')
  return error.details ? `${head} (${error.details})` : String(head)
}

/** wa_id → profile name, from a change's `contacts`. */
function profileNames(contacts: unknown): Map<string, string> {
  const names = new Map<string, string>()
  for (const contact of list(contacts)) {
    if (!isRecord(contact) || typeof contact.wa_id !== 'string' || !isRecord(contact.profile)) continue
    const name = contact.profile.name
    if (typeof name === 'string' && name.trim()) names.set(contact.wa_id, name.trim())
  }
  return names
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 256
const ignored = (path: string, reason: string): IgnoredPart => ({ kind: 'ignored', path, reason })

export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
