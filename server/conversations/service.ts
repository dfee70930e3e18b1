import type { WriteBatcher } from '../db/write-batcher.ts'
import type { ConversationState, EngineInput } from '../engine/model.ts'
import { runEngine } from '../engine/run-engine.ts'
import type { ConversationFlow } from '../flows/conversation-flow-schema.ts'
import type { Content, ConversationStatus, Role } from '../protocol/widget-protocol.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../support/events.ts'
import { newId } from '../support/new-id.ts'
import type { ContactStore } from './contact-store.ts'
import type { ConversationStore, StoredConversation } from './conversation-store.ts'
import type { MessageStore } from './message-store.ts'
import type { Channel, Message } from './model.ts'

/** Messages a widget gets per batch of history. */
export const HISTORY_LIMIT = 50

export interface FlowSnapshot {
  flowId: string
  version: number
  definition: ConversationFlow
}

/** Published flow snapshots, answered by the flows domain. */
export interface FlowSnapshots {
  /** The snapshot a new conversation of this chatbot starts in, if any is published. */
  entry(chatbotId: string): FlowSnapshot | null
  /** One immutable version; null once the flow is deleted. */
  version(flowId: string, version: number): FlowSnapshot | null
}

export interface ChannelContext {
  chatbotId: string
  channel: Channel
  integrationId: string | null
  /** For phone captures typed in a local spelling. */
  defaultCountry?: string | null
}

export interface ConversationServiceDeps {
  contacts: ContactStore
  conversations: ConversationStore
  messages: MessageStore
  snapshots: FlowSnapshots
  events: EventBus
  now: Clock
  batch: WriteBatcher
}

interface Pending {
  conversation: StoredConversation
  message?: Message
  status?: ConversationStatus
}

export interface VisitorInput {
  clientId?: string
  content: Extract<Content, { kind: 'text' } | { kind: 'reply' }>
}

export interface VisitorResult {
  /** The visitor's own message as stored (the earlier one when this was a resend). */
  message: Message
  duplicate: boolean
}

export type ConversationService = ReturnType<typeof conversationService>

/**
 * A conversation's life: opening it (greeting, then the flow's first messages), feeding the
 * visitor's input to the engine, agents' messages and status changes. Every message is stored
 * before it is announced on the event bus, which the channels deliver from.
 */
export function conversationService(deps: ConversationServiceDeps) {
  const { contacts, conversations, messages, snapshots, events, now, batch } = deps
  // What the unit of work being run has stored, to announce after its commit.
  const pending: Pending[] = []

  function store(conversation: StoredConversation, role: Role, content: Content, extra: Partial<Message> = {}): Message {
    const message: Message = { id: newId(), conversation_id: conversation.id, role, content, created_at: now(), ...extra }
    messages.insert(message)
    pending.push({ conversation, message })
    return message
  }

  /** Announces, in order, what a unit stored; called once the batch holding it is committed. */
  function announce(stored: Pending[]): void {
    for (const { conversation, message, status } of stored) {
      if (message) events.emit('conversation.message', { conversation, message })
      if (status) events.emit('conversation.status', { conversation, status })
    }
  }

  /** One unit of work; what it stored is announced once it is committed. */
  function commit<T>(work: () => T): T {
    const stored: Pending[] = []
    try {
      return batch.run(
        () => {
          const result = work()
          stored.push(...pending)
          return result
        },
        () => announce(stored),
      )
    } finally {
      pending.length = 0
    }
  }

  function engineStep(conversation: StoredConversation, input: EngineInput, ctx: ChannelContext): void {
    const snapshot = conversation.flow_id && conversation.flow_version !== null
      ? snapshots.version(conversation.flow_id, conversation.flow_version)
      : null
    // A deleted flow's conversations keep their history but get no new bot messages.
    if (!snapshot) return
    const contact = contacts.get(conversation.contact_id)
    const state = conversation.state ? (JSON.parse(conversation.state) as ConversationState) : null
    const result = runEngine(snapshot.definition, state, input, {
      contact: contact?.details ?? {},
      defaultCountry: ctx.defaultCountry ?? undefined,
    })
    for (const content of result.messages) store(conversation, 'bot', content)
    const status = result.state.status
    conversations.saveState(conversation.id, JSON.stringify(result.state), status, now())
    if (status !== conversation.status) {
      pending.push({ conversation, status })
      conversation.status = status
    }
  }

  return {
    get: (id: string) => conversations.get(id),
    latestOfContact: (contactId: string) => conversations.latestOfContact(contactId),

    /** A new conversation: the greeting (if any), then the entry flow's first messages. */
    open(ctx: ChannelContext, contactId: string, greeting: string | null): StoredConversation {
      return commit(() => {
        const snapshot = snapshots.entry(ctx.chatbotId)
        const at = now()
        const conversation: StoredConversation = {
          id: newId(),
          chatbot_id: ctx.chatbotId,
          contact_id: contactId,
          channel: ctx.channel,
          integration_id: ctx.integrationId,
          flow_id: snapshot?.flowId ?? null,
          flow_version: snapshot?.version ?? null,
          status: 'bot',
          state: null,
          created_at: at,
          updated_at: null,
          last_message_at: at,
        }
        conversations.insert(conversation)
        if (greeting) store(conversation, 'bot', { kind: 'text', text: greeting })
        engineStep(conversation, { kind: 'start' }, ctx)
        return conversations.get(conversation.id) as StoredConversation
      })
    },

    /**
     * The visitor's text or reply: stored once per client id (a resend returns the first
     * copy), then answered by the bot while the conversation is the bot's.
     */
    visitorSays(conversationId: string, input: VisitorInput, ctx: ChannelContext): VisitorResult {
      return commit(() => {
        const conversation = conversations.get(conversationId)
        if (!conversation) throw new Error(`no conversation ${conversationId}`)
        if (input.clientId) {
          const earlier = messages.findByClientId(conversationId, input.clientId)
          if (earlier) return { message: earlier, duplicate: true }
        }
        const message = store(conversation, 'visitor', input.content, input.clientId ? { client_id: input.clientId } : {})
        contacts.markFirstMessage(conversation.contact_id, message.created_at)
        conversations.touch(conversation.id, message.created_at)
        if (conversation.status === 'bot') {
          const engineInput: EngineInput =
            input.content.kind === 'text'
              ? { kind: 'text', text: input.content.text }
              : { kind: 'reply', reply_to: input.content.reply_to, id: input.content.id, title: input.content.title }
          engineStep(conversation, engineInput, ctx)
        }
        return { message, duplicate: false }
      })
    },

    /** A person writes: stored and delivered; the bot stops answering (status handoff). */
    agentSays(conversation: StoredConversation, text: string, author?: string): Message {
      return commit(() => {
        const message = store(conversation, 'agent', { kind: 'text', text }, author ? { author } : {})
        conversations.touch(conversation.id, message.created_at)
        if (conversation.status !== 'handoff') {
          conversations.setStatus(conversation.id, 'handoff', now())
          pending.push({ conversation, status: 'handoff' })
        }
        return message
      })
    },

    /**
     * Take over (handoff), close, or hand back to the bot. A person taking over leaves the
     * bot's place in the flow as it was, so handing back lets it carry on from there; a flow's
     * own handoff resumes where the flow says; a flow that had ended starts again.
     */
    setStatus(conversation: StoredConversation, status: ConversationStatus, ctx: ChannelContext): StoredConversation {
      return commit(() => {
        if (status === conversation.status) return conversation
        if (status === 'bot') {
          conversations.setStatus(conversation.id, 'bot', now())
          const resumed = { ...conversation, status: 'bot' as const }
          pending.push({ conversation: resumed, status: 'bot' })
          const flowStatus = conversation.state ? (JSON.parse(conversation.state) as ConversationState).status : null
          if (flowStatus === 'handoff') engineStep(resumed, { kind: 'resume' }, ctx)
          else if (flowStatus === 'closed') engineStep(resumed, { kind: 'start' }, ctx)
        } else {
          conversations.setStatus(conversation.id, status, now())
          pending.push({ conversation, status })
        }
        return conversations.get(conversation.id) as StoredConversation
      })
    },

    /** What a widget shows on connect: the latest messages, or only those after one it has. */
    history(conversationId: string, after?: string): { messages: Message[]; hasMore: boolean } {
      if (after) {
        const newer = messages.after(conversationId, after, HISTORY_LIMIT + 1)
        return { messages: newer.slice(0, HISTORY_LIMIT), hasMore: newer.length > HISTORY_LIMIT }
      }
      return messages.latest(conversationId, HISTORY_LIMIT)
    },

    olderThan: (conversationId: string, before: string) => messages.before(conversationId, before, HISTORY_LIMIT),
  }
}
