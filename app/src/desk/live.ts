import { type Accessor, createSignal } from 'solid-js'
import type { ChatMessage, ConversationStatus } from '../types.ts'

export type LiveState = 'connecting' | 'open' | 'reconnecting'

/** What the desk hears about one conversation. `refresh` means: fetch it again. */
export type ConversationEvent =
  | { type: 'refresh' }
  | { type: 'message'; message: ChatMessage }
  | { type: 'status'; status: ConversationStatus }
  | { type: 'typing'; from: 'visitor' | 'agent' | 'bot'; active: boolean; name?: string }

export interface Live {
  state: Accessor<LiveState>
  /** The list may have changed. */
  onChange(handler: () => void): void
  onConversation(id: string, handler: (event: ConversationEvent) => void): () => void
  close(): void
}

const POLL_MS = 2_000

/**
 * Live updates. Until the desk socket exists, the desk asks again every two seconds; the
 * screens only see "something changed" and refetch, so the socket can replace this without
 * touching them.
 */
export function live(): Live {
  const [state, setState] = createSignal<LiveState>('open')
  const listHandlers = new Set<() => void>()
  const conversationHandlers = new Map<string, Set<(event: ConversationEvent) => void>>()
  let failures = 0
  const tick = async () => {
    try {
      const response = await fetch('/api/dev/v1/auth/me', { credentials: 'same-origin' })
      failures = 0
      if (response.ok) setState('open')
    } catch {
      failures += 1
      setState('reconnecting')
      return
    }
    for (const handler of listHandlers) handler()
    for (const set of conversationHandlers.values()) for (const handler of set) handler({ type: 'refresh' })
  }
  const timer = setInterval(() => void tick(), POLL_MS)
  return {
    state,
    onChange(handler) {
      listHandlers.add(handler)
    },
    onConversation(id, handler) {
      const set = conversationHandlers.get(id) ?? new Set()
      set.add(handler)
      conversationHandlers.set(id, set)
      return () => set.delete(handler)
    },
    close() {
      clearInterval(timer)
      listHandlers.clear()
      conversationHandlers.clear()
      void failures
    },
  }
}
