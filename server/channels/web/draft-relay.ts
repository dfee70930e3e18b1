import type { ChatMessage, ServerMessage } from '../../protocol/widget-protocol.ts'
import type { ConversationRef } from '../../events/domain-events.ts'
import type { WidgetSocket } from './socket-data.ts'
import { contactKey, type SocketHub } from './socket-hub.ts'

/**
 * How the widget's tabs follow the bot's answer while an LLM writes it: drafts (text not yet
 * stored) and the bot's typing while tools run. Nothing here is stored; a restart forgets it,
 * and the stored message, or a welcome, puts every tab right.
 */
export interface DraftRelayTuning {
  /**
   * Deltas of one draft within this window go out as one frame: a model sends a fragment of
   * a few characters 30 to 100 times a second, and a tab needs no more than about 20
   * repaints a second. The first fragment after a quiet window goes at once.
   */
  draftFlushMs?: number
  /** A tab with more than this many bytes not yet taken by its peer gets no deltas until it drains. */
  draftBehindBytes?: number
  /** A draft (or the bot's typing) that hears nothing for this long is abandoned: its run is gone. */
  draftStaleMs?: number
}

/** Characters of a draft relayed; past it the tabs wait for the stored message. */
export const MAX_DRAFT_CHARS = 32 * 1024
/** A run keeps its draft alive by writing; ten silent minutes mean it is gone (a crash, a bug). */
const DEFAULT_STALE_MS = 10 * 60_000

const DEFAULT_FLUSH_MS = 50
const DEFAULT_BEHIND_BYTES = 64 * 1024

interface Draft {
  messageId: string
  conversationId: string
  contactId: string
  text: string
  /** A fragment did not fit under MAX_DRAFT_CHARS: no later one may be added after the gap. */
  full: boolean
  /** How much of `text` each tab shows; a tab missing here has not been sent the draft yet. */
  shown: WeakMap<WidgetSocket, number>
  timer: ReturnType<typeof setTimeout> | null
  flushedAt: number
  touchedAt: number
}

export function draftRelay(hub: SocketHub, tuning: DraftRelayTuning = {}) {
  const flushMs = tuning.draftFlushMs ?? DEFAULT_FLUSH_MS
  const behindBytes = tuning.draftBehindBytes ?? DEFAULT_BEHIND_BYTES
  const staleMs = tuning.draftStaleMs ?? DEFAULT_STALE_MS
  const drafts = new Map<string, Draft>()
  const draftsOfContact = new Map<string, Set<Draft>>()
  /** Contacts whose bot is working on an answer now, with when it said so. */
  const botTyping = new Map<string, number>()

  const tabsOf = (contactId: string) => hub.socketsOf(contactKey(contactId))

  function open(conversation: ConversationRef, messageId: string): Draft {
    const existing = drafts.get(messageId)
    if (existing) return existing
    const draft: Draft = {
      messageId,
      conversationId: conversation.id,
      contactId: conversation.contact_id,
      text: '',
      full: false,
      shown: new WeakMap(),
      timer: null,
      flushedAt: -Infinity,
      touchedAt: performance.now(),
    }
    drafts.set(messageId, draft)
    let own = draftsOfContact.get(draft.contactId)
    if (!own) draftsOfContact.set(draft.contactId, (own = new Set()))
    own.add(draft)
    return draft
  }

  function forget(draft: Draft): void {
    if (draft.timer) clearTimeout(draft.timer)
    drafts.delete(draft.messageId)
    const own = draftsOfContact.get(draft.contactId)
    own?.delete(draft)
    if (own?.size === 0) draftsOfContact.delete(draft.contactId)
  }

  function schedule(draft: Draft): void {
    if (draft.timer) return
    const wait = draft.flushedAt + flushMs - performance.now()
    if (wait <= 0) return flush(draft)
    draft.timer = setTimeout(() => {
      draft.timer = null
      flush(draft)
    }, wait)
  }

  /** Every tab gets what it lacks: one frame each, serialised once per starting point. */
  function flush(draft: Draft): void {
    draft.flushedAt = performance.now()
    const frames = new Map<number, string>()
    for (const tab of tabsOf(draft.contactId)) catchUp(tab, draft, frames)
  }

  function catchUp(tab: WidgetSocket, draft: Draft, frames = new Map<number, string>()): void {
    const shown = draft.shown.get(tab) ?? -1
    if (shown === draft.text.length) return
    // A tab whose peer reads slowly is left behind: it gets the rest in one frame once it has
    // drained, or the stored message, instead of an ever longer queue of small frames.
    if (tab.getBufferedAmount() > behindBytes) return
    let frame = frames.get(shown)
    if (frame === undefined) {
      const message: ServerMessage =
        shown < 0
          ? { type: 'draft', conversation_id: draft.conversationId, message_id: draft.messageId, text: draft.text }
          : { type: 'draft_delta', message_id: draft.messageId, at: shown, text: draft.text.slice(shown) }
      frames.set(shown, (frame = JSON.stringify(message)))
    }
    // 0: the socket refused it (closed, or past Bun's own backpressure limit); the tab is not ahead.
    if (tab.send(frame) !== 0) draft.shown.set(tab, draft.text.length)
  }

  function sweep(): void {
    const stale = performance.now() - staleMs
    for (const draft of [...drafts.values()]) if (draft.touchedAt < stale) dropped(draft.messageId)
    for (const [contactId, since] of [...botTyping]) if (since < stale) botTyping.delete(contactId)
  }

  function dropped(messageId: string): void {
    const draft = drafts.get(messageId)
    if (!draft) return
    forget(draft)
    const frame = JSON.stringify({ type: 'draft_dropped', message_id: messageId } satisfies ServerMessage)
    for (const tab of tabsOf(draft.contactId)) if (draft.shown.has(tab)) tab.send(frame)
  }

  const sweeper = setInterval(sweep, Math.min(60_000, staleMs))
  sweeper.unref?.()

  return {
    /** 'conversation.draft' of a web conversation. */
    draft(conversation: ConversationRef, messageId: string, phase: 'started' | 'delta' | 'dropped', text = ''): void {
      if (phase === 'dropped') return dropped(messageId)
      // A delta whose start was missed still opens the draft: the tabs see it all the same.
      const draft = open(conversation, messageId)
      draft.touchedAt = performance.now()
      if (draft.full || draft.text.length + text.length > MAX_DRAFT_CHARS) {
        draft.full = true
        return
      }
      draft.text += text
      // A start is shown at once (the bubble appears) and opens no window, so the first text
      // follows at once too; later deltas are coalesced.
      if (phase !== 'started') return schedule(draft)
      flush(draft)
      draft.flushedAt = -Infinity
    },

    /**
     * Before stored messages go out: a draft with the id of one of them is over (its text not
     * yet sent is not needed: the message carries it all); the bot has stopped typing.
     */
    stored(conversation: ConversationRef, messages: readonly ChatMessage[]): void {
      for (const message of messages) {
        const draft = drafts.get(message.id)
        if (draft) forget(draft)
        if (message.role === 'bot') botTyping.delete(conversation.contact_id)
      }
    },

    /** 'conversation.typing' from the bot, kept so that a tab connecting meanwhile shows it too. */
    botTyping(conversation: ConversationRef, active: boolean): void {
      if (active) botTyping.set(conversation.contact_id, performance.now())
      else botTyping.delete(conversation.contact_id)
    },

    /**
     * Right after a tab's welcome: the contact's open drafts in whole, and the bot's typing.
     * The widget forgets its drafts on every welcome, so a dropped draft is gone and a stored
     * one comes back once, as the message it became.
     */
    resume(tab: WidgetSocket): void {
      const contactId = tab.data.contactId
      if (!contactId) return
      if (botTyping.has(contactId)) tab.send(JSON.stringify({ type: 'typing', from: 'bot', active: true } satisfies ServerMessage))
      for (const draft of draftsOfContact.get(contactId) ?? []) {
        draft.shown.delete(tab)
        catchUp(tab, draft)
      }
    },

    /** Open drafts, for tests and the benchmark. */
    get size(): number {
      return drafts.size
    },

    close(): void {
      clearInterval(sweeper)
      for (const draft of [...drafts.values()]) forget(draft)
      botTyping.clear()
    },
  }
}

export type DraftRelay = ReturnType<typeof draftRelay>
