import { API, api, parseJson, query, refused, unreachable } from '../api.ts'
import type { ChatMessage, Chatbot, Context, DeskConversation, Label, LabelColor, Note, Page, SavedReply, TimelineItem, User } from '../types.ts'
import type { ListFilter } from './views.ts'

/** The desk's routes (/api/dev/v1/desk/...), workspace-wide, with the session cookie. */
const base = (id: string) => `/desk/conversations/${encodeURIComponent(id)}`

export const LIST_PAGE = 50

export async function chatbots(): Promise<Chatbot[]> {
  return (await api<Page<Chatbot>>('GET', `/chatbots${query({ limit: 200 })}`)).items
}

export async function people(): Promise<User[]> {
  return (await api<Page<User>>('GET', `/users${query({ limit: 200 })}`)).items
}

export async function listConversations(filter: ListFilter, cursor?: string | null): Promise<{ items: DeskConversation[]; next_cursor: string | null }> {
  return await api('GET', `/desk/conversations${query({ view: filter.view, chatbot_id: filter.chatbot_id, channel: filter.channel, rating: filter.rating, label_id: filter.label_id, q: filter.q, cursor, limit: LIST_PAGE })}`)
}

export async function conversation(id: string): Promise<DeskConversation> {
  return await api('GET', base(id))
}

export async function timeline(id: string, before?: string): Promise<{ items: TimelineItem[]; has_more: boolean }> {
  return await api('GET', `${base(id)}/timeline${query({ before })}`)
}

export async function context(id: string): Promise<Context> {
  return await api('GET', `${base(id)}/context`)
}

/** 409 stale_view when messages newer than `lastSeen` arrived, unless `force`. */
export async function reply(id: string, text: string, lastSeen: string | null, force = false): Promise<ChatMessage> {
  return await api('POST', `${base(id)}/replies`, { text, last_seen_message_id: lastSeen, ...(force ? { force: true } : {}) })
}

export async function addNote(id: string, text: string): Promise<Note> {
  return await api('POST', `${base(id)}/notes`, { text })
}

export async function setStatus(id: string, status: DeskConversation['status']): Promise<DeskConversation> {
  return await api('POST', `${base(id)}/status`, { status })
}

export async function assign(id: string, assigneeId: string | null): Promise<DeskConversation> {
  return await api('POST', `${base(id)}/assign`, { assignee_id: assigneeId })
}

export async function markRead(id: string, messageId: string): Promise<void> {
  await api('POST', `${base(id)}/read`, { message_id: messageId })
}

export async function typing(id: string, active: boolean): Promise<void> {
  await api('POST', `${base(id)}/typing`, { active })
}

export async function savedReplies(): Promise<SavedReply[]> {
  return (await api<Page<SavedReply>>('GET', '/desk/saved-replies')).items
}

/**
 * Sends the visitor a file as the signed-in person: the raw bytes, its name in the query.
 * XMLHttpRequest rather than fetch, for the upload's progress; refusals are the server's
 * problem details (too large, a type it does not keep), as ApiError.
 */
export function attach(id: string, file: File, onProgress: (fraction: number) => void): Promise<ChatMessage> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    const path = `${base(id)}/attachments${query({ filename: file.name })}`
    request.open('POST', `${API}${path}`)
    request.setRequestHeader('accept', 'application/json')
    request.setRequestHeader('content-type', 'application/octet-stream')
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total)
    }
    request.onerror = () => reject(unreachable())
    request.onload = () => {
      const parsed = parseJson(request.responseText)
      if (request.status === 201) return resolve(parsed as ChatMessage)
      reject(refused(request.status, path, parsed))
    }
    request.send(file)
  })
}

/** The workspace's labels, by name. */
export async function labels(): Promise<Label[]> {
  return (await api<{ items: Label[] }>('GET', '/labels')).items
}

/** An admin's: a new label of the workspace's set (409 label_taken when the name is, in any case). */
export async function createLabel(name: string, color: LabelColor): Promise<Label> {
  return await api('POST', '/labels', { name, color })
}

/** Sets a label on the conversation, or takes it off; answers the labels it carries then. */
export async function setLabel(id: string, labelId: string, on: boolean): Promise<Label[]> {
  return (await api<{ items: Label[] }>(on ? 'PUT' : 'DELETE', `${base(id)}/labels/${encodeURIComponent(labelId)}`)).items
}
