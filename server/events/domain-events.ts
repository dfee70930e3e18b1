import type { ChatMessage, ConversationRating, ConversationStatus } from '../protocol/widget-protocol.ts'

/**
 * What one part of Parley announces so that others can react without being imported by it
 * (a deleted integration closes its sockets, a published flow reaches running channels).
 * Add an event here when a new domain needs one.
 */
export interface DomainEvents {
  /** A write batch was rolled back (a database failure): what was read inside it may never have been stored. */
  'database.rolled_back': Record<string, never>
  'chatbot.removed': { workspaceId: string; chatbotId: string }
  /** An integration was deleted: its channel must close now (sockets, inbound requests). */
  'integration.removed': { workspaceId: string; chatbotId: string; integrationId: string; type: string }
  /** A PATCH changed an integration; `isActive: false` means its channel must close. */
  'integration.changed': { workspaceId: string; chatbotId: string; integrationId: string; type: string; isActive: boolean }
  /** A PATCH changed a chatbot (its entry flow, its model settings or its name). */
  'chatbot.changed': { workspaceId: string; chatbotId: string }
  /** A flow has a new live version: new conversations may start on it. */
  'flow.published': { workspaceId: string; chatbotId: string; flowId: string }
  /** A flow is gone; conversations in it get no new bot messages. Its chatbot's entry_flow_id no longer names it. */
  'flow.removed': { workspaceId: string; chatbotId: string; flowId: string }
  /** Messages were stored in a conversation (one turn's worth, in order): channels deliver them. */
  'conversation.messages': { conversation: ConversationRef; messages: ChatMessage[] }
  /** The visitor rated their closed conversation (stored): the desk shows it. */
  'conversation.rated': { conversation: ConversationRef; rating: ConversationRating }
  /** A conversation's status changed (handoff, closed, back to the bot). */
  'conversation.status': { conversation: ConversationRef; status: ConversationStatus }
  /**
   * A person (`agent`) is typing in a conversation, or the bot is working on an answer (an LLM
   * run, tools included); or stopped. `person`: who of the desk is typing, when a person is
   * (not an API caller).
   */
  'conversation.typing': { conversation: ConversationRef; active: boolean; from: 'agent' | 'bot'; person?: { id: string; display_name: string } | null }
  /**
   * The bot's answer while it is being written (an LLM agent state), before it is stored:
   * `started` opens a draft under the id the stored message will have, `delta` adds text to it,
   * `dropped` abandons it (the run failed, or a person took over). A kept draft ends when
   * 'conversation.messages' announces the stored message with that same id. Only channels
   * that can show text as it comes (the widget) listen; nothing here is stored or delivered.
   */
  'conversation.draft': { conversation: ConversationRef; message_id: string; phase: 'started' | 'delta' | 'dropped'; text?: string }
  /** Sessions ended (sign-out, sign-out everywhere, a person disabled or their password reset): open desk sockets of theirs close. */
  'people.sessions_ended': { sessionId?: string; userId?: string }
  /** The visitor is typing in the widget, or stopped: shown on the desk. */
  'visitor.typing': { conversation: ConversationRef; active: boolean }
  /** A widget visitor with a contact is on a page (at connect, or when their first conversation opens): the desk's context panel shows it. */
  'visitor.seen': { contactId: string; pageUrl: string | null; userAgent: string | null; address: string | null }
  /** A "seen" mark moved: the visitor read the answers, or the team (bot or agent) the visitor's messages, up to a message id. */
  'conversation.read': { conversation: ConversationRef; reader: 'visitor' | 'team'; up_to: string; at: string }
  /** An LLM agent run failed (its end is committed): the desk shows why. */
  'agent.failed': { conversation: ConversationRef; failure: { kind: string; message: string; http_status: number | null } }
  /** An outbox delivery attempt was recorded: delivered, to be tried again, or given up (counted by the metrics). */
  'outbox.attempted': { kind: string; result: 'delivered' | 'retry' | 'failed' }
  /** An LLM agent run ended, as the model ended it; its time and the tokens the model reported (counted by the metrics). */
  'autopilot.run_ended': { outcome: 'answer' | 'exit' | 'failed'; durationMs: number; promptTokens: number; completionTokens: number }
}

/** Enough of a conversation for a channel to find who must receive an event. */
export interface ConversationRef {
  id: string
  chatbot_id: string
  contact_id: string
  channel: string
  integration_id: string | null
}

type Handler<T> = (payload: T) => void

export type EventBus = ReturnType<typeof eventBus>

export function eventBus() {
  const handlers = new Map<keyof DomainEvents, Set<Handler<never>>>()
  return {
    on<K extends keyof DomainEvents>(name: K, handler: Handler<DomainEvents[K]>): () => void {
      const set = handlers.get(name) ?? new Set()
      set.add(handler as Handler<never>)
      handlers.set(name, set)
      return () => set.delete(handler as Handler<never>)
    },
    /** Handlers run synchronously, in registration order, after the change is committed. */
    emit<K extends keyof DomainEvents>(name: K, payload: DomainEvents[K]): void {
      for (const handler of handlers.get(name) ?? []) (handler as Handler<DomainEvents[K]>)(payload)
    },
  }
}
