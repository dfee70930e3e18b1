import { messageJson } from '../../conversations/message-json.ts'
import type { ServerMessage } from '../../protocol/widget-protocol.ts'
import type { WidgetSocket } from './socket-data.ts'

/**
 * Finds the open sockets of a visitor (every tab) and of an integration. A visitor is keyed
 * by contact once known (`c:ID`), before that by identity or anonymous token, and re-keyed
 * when the contact is created so that every tab follows.
 */
export class SocketHub {
  private readonly byVisitor = new Map<string, Set<WidgetSocket>>()
  private readonly byIntegration = new Map<string, Set<WidgetSocket>>()
  /** Frames waiting for the end of the current task, per socket, in order. */
  private queued = new Map<WidgetSocket, string[]>()

  /** On open: the integration can close it from now on. */
  add(socket: WidgetSocket): void {
    if (socket.data.integration) addTo(this.byIntegration, socket.data.integration.integrationId, socket)
  }

  /** On hello: its visitor is known. */
  setVisitor(socket: WidgetSocket, visitorKey: string): void {
    if (socket.data.visitorKey) removeFrom(this.byVisitor, socket.data.visitorKey, socket)
    socket.data.visitorKey = visitorKey
    addTo(this.byVisitor, visitorKey, socket)
  }

  remove(socket: WidgetSocket): void {
    if (socket.data.visitorKey) removeFrom(this.byVisitor, socket.data.visitorKey, socket)
    if (socket.data.integration) removeFrom(this.byIntegration, socket.data.integration.integrationId, socket)
  }

  /** All tabs under `fromKey` become the contact's, and learn its id. */
  bindContact(fromKey: string, contactId: string): void {
    const toKey = contactKey(contactId)
    if (fromKey === toKey) return
    for (const socket of this.byVisitor.get(fromKey) ?? []) {
      socket.data.visitorKey = toKey
      socket.data.contactId = contactId
      addTo(this.byVisitor, toKey, socket)
    }
    this.byVisitor.delete(fromKey)
  }

  socketsOf(visitorKey: string): ReadonlySet<WidgetSocket> {
    return this.byVisitor.get(visitorKey) ?? EMPTY
  }

  /**
   * Sends frames to every tab of a contact: each serialised once, and written at the end of
   * the current task together with whatever else the task sends that tab. A turn's messages
   * and the bot's read mark are announced by separate commit callbacks; written as they came
   * they cost a system call each.
   */
  sendToContact(contactId: string, messages: ServerMessage[], update?: (socket: WidgetSocket) => void): void {
    const sockets = this.byVisitor.get(contactKey(contactId))
    if (!sockets) return
    const frames = messages.map(frameText)
    if (this.queued.size === 0) queueMicrotask(this.flush)
    for (const socket of sockets) {
      update?.(socket)
      const waiting = this.queued.get(socket)
      if (!waiting) this.queued.set(socket, frames.slice())
      else for (const frame of frames) waiting.push(frame)
    }
  }

  /** Writes the queued frames, one write per socket. */
  readonly flush = (): void => {
    const queued = this.queued
    if (queued.size === 0) return
    this.queued = new Map()
    for (const [socket, frames] of queued) {
      if (frames.length === 1) socket.send(frames[0] as string)
      else socket.cork(() => {
        for (const frame of frames) socket.send(frame)
      })
    }
  }

  closeIntegration(integrationId: string, code: number, reason: string): void {
    this.flush()
    for (const socket of [...(this.byIntegration.get(integrationId) ?? [])]) socket.close(code, reason)
  }

  closeChatbot(chatbotId: string, code: number, reason: string): void {
    this.flush()
    for (const sockets of this.byIntegration.values()) {
      for (const socket of [...sockets]) if (socket.data.integration?.chatbotId === chatbotId) socket.close(code, reason)
    }
  }

  closeAll(code: number, reason: string): void {
    this.flush()
    for (const sockets of this.byIntegration.values()) for (const socket of [...sockets]) socket.close(code, reason)
  }

  get size(): number {
    let count = 0
    for (const sockets of this.byIntegration.values()) count += sockets.size
    return count
  }
}

export const contactKey = (contactId: string) => `c:${contactId}`

/** A frame's JSON text; a message's own text is made once (the desk feed's entry shares it). */
function frameText(frame: ServerMessage): string {
  return frame.type === 'message' ? `{"type":"message","message":${messageJson(frame.message)}}` : JSON.stringify(frame)
}

const EMPTY: ReadonlySet<WidgetSocket> = new Set()

function addTo(map: Map<string, Set<WidgetSocket>>, key: string, socket: WidgetSocket): void {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  set.add(socket)
}

function removeFrom(map: Map<string, Set<WidgetSocket>>, key: string, socket: WidgetSocket): void {
  const set = map.get(key)
  if (!set) return
  set.delete(socket)
  if (set.size === 0) map.delete(key)
}
