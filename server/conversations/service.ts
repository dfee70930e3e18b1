import { RowCache } from '../db/row-cache.ts'
import type { WriteBatcher } from '../db/write-batcher.ts'
import type { ConversationState, EngineContext, EngineEvent, EngineInput, EngineStep } from '../engine/model.ts'
import { runEngine } from '../engine/run-engine.ts'
import type { ConversationFlow } from '../flow-language/conversation-flow-schema.ts'
import type { Content, ConversationStatus, Role } from '../protocol/widget-protocol.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { newId } from '../support/new-id.ts'
import { flowContact } from './contact-details.ts'
import type { ContactStore } from './contact-store.ts'
import type { ConversationStore, StoredConversation } from './conversation-store.ts'
import type { MessageStore } from './message-store.ts'
import type { Channel, ContactDetails, Message } from './model.ts'

/** Conversations whose engine state is kept parsed. */
const PARSED_STATES = 10_000

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

/** A turn as it is about to be written, for the channels that write rows of their own with it. */
export interface TurnRecord {
  /** The conversation as the turn leaves it (its new status). */
  conversation: StoredConversation
  /** The turn's messages, in order, whoever wrote them. */
  messages: Message[]
  /** The status before the turn; null when the turn opened the conversation. */
  previousStatus: ConversationStatus | null
  /** What the engine reported in the turn (an `agent_run` asks the autopilot for a run). */
  engineEvents: EngineEvent[]
  /** The states the bot entered in the turn, with the way in (the flow builder's counts). */
  engineSteps: EngineStep[]
  /** When the turn happens. */
  at: string
}

/**
 * A channel's share of a turn's write unit: rows that must be stored with the turn's messages
 * or not at all, such as an outbox of deliveries. `writesFor` runs before the unit, where it
 * may read and fail; the function it returns runs inside the unit and must only write.
 */
export interface TurnWriter {
  writesFor(turn: TurnRecord): (() => void) | null
}

export interface ConversationServiceDeps {
  contacts: ContactStore
  conversations: ConversationStore
  messages: MessageStore
  snapshots: FlowSnapshots
  events: EventBus
  now: Clock
  batch: WriteBatcher
  turnWriters?: readonly TurnWriter[]
  /** What a flow's branches may test besides variables and contact details (labels, business hours), read for the bot's turn. */
  turnFacts?: TurnFacts
}

/** Facts of a turn for the engine's context: asked only when the bot takes part, with the flow it runs. */
export type TurnFacts = (conversation: StoredConversation, flow: ConversationFlow, at: string) => Pick<EngineContext, 'labels' | 'withinBusinessHours' | 'closedText'>

export interface VisitorInput {
  clientId?: string
  /** A text, a pick of a button or row, or a file the visitor sent (an attachment's `media`). */
  content: Extract<Content, { kind: 'text' } | { kind: 'reply' } | { kind: 'media' }>
  /** Stored and shown, but nothing for the flow to answer (a reaction to an earlier message). */
  notAnAnswer?: boolean
}

export interface VisitorResult {
  /** The visitor's own message as stored (the earlier one when this was a resend). */
  message: Message
  duplicate: boolean
}

/**
 * What one step of a conversation changes, worked out before anything is written: the
 * messages to store, the bot's new place in the flow, and the status.
 */
interface Turn {
  conversation: StoredConversation
  messages: Message[]
  /** The engine's new state, when the bot took part. */
  state?: ConversationState
  engineEvents: EngineEvent[]
  engineSteps: EngineStep[]
  status: ConversationStatus
  /** When the turn happens: its messages' time and the conversation's update time. */
  at: string
}

export type ConversationService = ReturnType<typeof conversationService>

/**
 * What the flow reads: a file is the text `[image] photo.png` or `[file] invoice.pdf`, as
 * media from the messaging app reads, so a `match` can route it and a capture refuses it.
 */
function engineInputOf(content: VisitorInput['content']): Extract<EngineInput, { kind: 'text' | 'reply' }> {
  if (content.kind === 'text') return { kind: 'text', text: content.text }
  if (content.kind === 'media') return { kind: 'text', text: mediaAsText(content.media) }
  return { kind: 'reply', reply_to: content.reply_to, id: content.id, title: content.title }
}

/** `[image] photo.png`, `[file] invoice.pdf`; the caption when there is no file name. */
export function mediaAsText(media: Extract<Content, { kind: 'media' }>['media']): string {
  const name = media.filename ?? media.caption
  return name ? `[${media.type}] ${name}` : `[${media.type}]`
}

/**
 * A conversation's life: opening it (greeting, then the flow's first messages), feeding the
 * visitor's input to the engine, agents' messages and status changes. Each step is worked out
 * first (reads and the pure engine), then written as one unit of the write batch; its
 * messages are announced on the event bus, which the channels deliver from, only once that
 * batch is committed.
 */
export function conversationService(deps: ConversationServiceDeps) {
  const { contacts, conversations, messages, snapshots, events, now, batch, turnWriters = [], turnFacts } = deps

  /**
   * The engine's state as last written or read, parsed: every turn of a chat reads it, and the
   * engine never changes the state it is given. Used only while the stored text is the same.
   */
  const parsedStates = new RowCache<{ text: string; state: ConversationState }>(PARSED_STATES)
  function stateOf(conversation: StoredConversation): ConversationState | null {
    const text = conversation.state
    if (!text) return null
    const kept = parsedStates.get(conversation.id)
    if (kept && kept.text === text) return kept.state
    const state = JSON.parse(text) as ConversationState
    parsedStates.set(conversation.id, { text, state })
    return state
  }

  /** A message of the turn, stamped with the turn's time (one clock read per turn). */
  function message(turn: Turn, role: Role, content: Content, extra: Partial<Message> = {}): Message {
    return { id: newId(), conversation_id: turn.conversation.id, role, content, created_at: turn.at, ...extra }
  }

  /** The bot's part of a turn: its messages and new state, or nothing once its flow is gone. */
  function botStep(turn: Turn, input: EngineInput, ctx: ChannelContext, contactDetails: Record<string, string | number | boolean>): void {
    const { conversation } = turn
    const snapshot =
      conversation.flow_id && conversation.flow_version !== null ? snapshots.version(conversation.flow_id, conversation.flow_version) : null
    // A deleted flow's conversations keep their history but get no new bot messages.
    if (!snapshot) return
    const state = turn.state ?? stateOf(conversation)
    const contact = flowContact(contactDetails, contacts.localeOf(conversation.contact_id))
    const facts = turnFacts?.(conversation, snapshot.definition, turn.at)
    const result = runEngine(snapshot.definition, state, input, { contact, defaultCountry: ctx.defaultCountry ?? undefined, now: Date.parse(turn.at), ...facts })
    for (const content of result.messages) turn.messages.push(message(turn, 'bot', content))
    turn.engineEvents.push(...result.events)
    turn.engineSteps.push(...result.steps)
    turn.state = result.state
    turn.status = result.state.status
  }

  /** An agent's message, signed with their name and picture when given: the bot stops answering (status handoff). */
  function agentSends(conversation: StoredConversation, content: Content, author?: string, authorAvatarUrl?: string): Message {
    const turn = startTurn(conversation)
    const said = message(turn, 'agent', content, { ...(author ? { author } : {}), ...(authorAvatarUrl ? { author_avatar_url: authorAvatarUrl } : {}) })
    turn.messages.push(said)
    turn.status = 'handoff'
    write(turn)
    return said
  }

  /**
   * Writes a worked-out turn as one unit of the batch (a new conversation's row and the
   * channels' own rows included) and announces it once the batch is committed.
   */
  function write(turn: Turn, isNew = false, alsoWrite?: () => void): void {
    const { conversation } = turn
    const before = isNew ? null : conversation.status
    const lastAt = turn.messages.at(-1)?.created_at ?? conversation.last_message_at
    const state = turn.state ? JSON.stringify(turn.state) : null
    if (state && turn.state) parsedStates.set(conversation.id, { text: state, state: turn.state })
    const record: TurnRecord = { conversation: { ...conversation, status: turn.status, last_message_at: lastAt }, messages: turn.messages, previousStatus: before, engineEvents: turn.engineEvents, engineSteps: turn.engineSteps, at: turn.at }
    const channelWrites = turnWriters.flatMap((writer) => writer.writesFor(record) ?? [])
    batch.run(
      () => {
        // What caused the turn first (an agent run's end): the desk's timeline then shows a
        // failed run before the handoff it led to.
        if (!isNew) alsoWrite?.()
        if (isNew) {
          conversations.insert({ ...conversation, status: turn.status, state, last_message_at: lastAt })
          messages.opened(conversation.id)
        }
        else conversations.saveTurn(conversation.id, state, turn.status === before ? null : turn.status, turn.at, lastAt)
        messages.insertAll(turn.messages)
        for (const write of channelWrites) write()
        if (isNew) alsoWrite?.()
      },
      () => {
        const shown = { ...conversation, status: turn.status }
        if (turn.messages.length > 0) events.emit('conversation.messages', { conversation: shown, messages: turn.messages })
        if (before !== null && turn.status !== before) events.emit('conversation.status', { conversation: shown, status: turn.status })
      },
    )
    conversation.status = turn.status
    conversation.last_message_at = lastAt
    if (state) conversation.state = state
  }

  const startTurn = (conversation: StoredConversation, at = now()): Turn => ({ conversation, messages: [], engineEvents: [], engineSteps: [], status: conversation.status, at })

  /** A new conversation's row, in the chatbot's entry flow as published now, and its first turn. */
  function openingTurn(ctx: ChannelContext, contactId: string): { conversation: StoredConversation; turn: Turn } {
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
    return { conversation, turn: startTurn(conversation, at) }
  }

  /** The greeting, then the flow's first messages, with the page's details over the stored ones. */
  function opening(turn: Turn, ctx: ChannelContext, greeting: string | null, pageDetails: ContactDetails): void {
    if (greeting) turn.messages.push(message(turn, 'bot', { kind: 'text', text: greeting }))
    const stored = contacts.get(turn.conversation.contact_id)?.details ?? {}
    botStep(turn, { kind: 'start' }, ctx, { ...stored, ...pageDetails })
  }

  return {
    get: (id: string) => conversations.get(id),
    latestOfContact: (contactId: string, channel: Channel) => conversations.latestOfContact(contactId, channel),

    /**
     * A new conversation: the greeting (if any), then the entry flow's first messages.
     * `pageDetails` are contact details the page gave that are not stored yet (they are, once
     * the visitor speaks): the flow's first messages can already use them.
     */
    open(ctx: ChannelContext, contactId: string, greeting: string | null, pageDetails: ContactDetails = {}): StoredConversation {
      const { conversation, turn } = openingTurn(ctx, contactId)
      opening(turn, ctx, greeting, pageDetails)
      write(turn, true)
      return conversation
    },

    /**
     * A new conversation opened by the visitor's own message (a channel with no "open chat"
     * step, or a text after the last conversation closed): the message is stored first, then
     * the greeting and the flow's first messages. It counts as an answer only when the first
     * state listens for what it says (the engine's `opening` input): nothing had been asked
     * yet, and answering anything else would greet and then say the fallback.
     */
    openWith(ctx: ChannelContext, contactId: string, greeting: string | null, input: VisitorInput, pageDetails: ContactDetails = {}): VisitorResult & { conversation: StoredConversation } {
      const { conversation, turn } = openingTurn(ctx, contactId)
      const said = message(turn, 'visitor', input.content, input.clientId ? { client_id: input.clientId } : {})
      // A reaction opens nothing of its own: it follows the flow's first messages, as before.
      if (input.notAnAnswer) {
        opening(turn, ctx, greeting, pageDetails)
        turn.messages.push(said)
      } else {
        turn.messages.push(said)
        opening(turn, ctx, greeting, pageDetails)
      }
      if (turn.status === 'bot' && !input.notAnAnswer) {
        const details = { ...(contacts.get(contactId)?.details ?? {}), ...pageDetails }
        botStep(turn, { ...engineInputOf(input.content), opening: true }, ctx, details)
      }
      write(turn, true)
      const contact = contacts.get(contactId)
      if (contact && !contact.first_message_at) batch.run(() => contacts.markFirstMessage(contact.id, said.created_at))
      return { conversation, message: said, duplicate: false }
    },

    /**
     * The visitor's text or reply in a running conversation: stored once per client id (a
     * resend returns the first copy), then answered by the bot while the conversation is the
     * bot's.
     */
    visitorSays(conversation: StoredConversation, input: VisitorInput, ctx: ChannelContext): VisitorResult {
      if (input.clientId) {
        const earlier = messages.findByClientId(conversation.id, input.clientId)
        if (earlier) return { message: earlier, duplicate: true }
      }
      const contact = contacts.get(conversation.contact_id)
      const turn = startTurn(conversation)
      const said = message(turn, 'visitor', input.content, input.clientId ? { client_id: input.clientId } : {})
      turn.messages.push(said)
      if (conversation.status === 'bot' && !input.notAnAnswer) botStep(turn, engineInputOf(input.content), ctx, contact?.details ?? {})
      write(turn)
      if (contact && !contact.first_message_at) batch.run(() => contacts.markFirstMessage(contact.id, said.created_at))
      return { message: said, duplicate: false }
    },

    /** A person writes: stored and delivered; the bot stops answering (status handoff). */
    agentSays: (conversation: StoredConversation, text: string, author?: string, authorAvatarUrl?: string): Message =>
      agentSends(conversation, { kind: 'text', text }, author, authorAvatarUrl),

    /** A person sends a file (an attachment's `media` content): as agentSays, stored and delivered on every channel. */
    agentSendsMedia: (conversation: StoredConversation, content: Extract<Content, { kind: 'media' }>, author?: string, authorAvatarUrl?: string): Message =>
      agentSends(conversation, content, author, authorAvatarUrl),

    /**
     * Take over (handoff), close, or hand back to the bot. A person taking over leaves the
     * bot's place in the flow as it was, so handing back lets it carry on from there; a flow's
     * own handoff resumes where the flow says; a flow that had ended starts again.
     */
    setStatus(conversation: StoredConversation, status: ConversationStatus, ctx: ChannelContext): StoredConversation {
      if (status === conversation.status) return conversation
      const turn = startTurn(conversation)
      turn.status = status
      if (status === 'bot') {
        const flowStatus = stateOf(conversation)?.status ?? null
        const details = () => contacts.get(conversation.contact_id)?.details ?? {}
        if (flowStatus === 'handoff') botStep(turn, { kind: 'resume' }, ctx, details())
        else if (flowStatus === 'closed') botStep(turn, { kind: 'start' }, ctx, details())
      }
      write(turn)
      return conversation
    },

    /**
     * The end of an LLM agent run (server/autopilot/), while the conversation is still the
     * bot's in the agent state `agentState`: a text answer is stored as the bot's message (under
     * `answerId`, the id its streamed draft had), an exit or a failure resumes the engine.
     * `alsoWrite` joins the same unit (the run's own rows). Answers null, writing nothing, when
     * the conversation moved on meanwhile (a person took over, the flow left the state): the
     * late answer is dropped.
     */
    agentRunEnded(
      conversationId: string,
      agentState: string,
      result: { kind: 'answer'; text: string; answerId: string } | Extract<EngineInput, { kind: 'agent_exit' | 'agent_failed' }>,
      alsoWrite: () => void,
    ): Message[] | null {
      const conversation = conversations.get(conversationId)
      const state = conversation ? stateOf(conversation) : null
      if (!conversation || conversation.status !== 'bot' || state?.waiting !== 'agent' || state.state !== agentState) return null
      const turn = startTurn(conversation)
      if (result.kind === 'answer') {
        turn.messages.push(message(turn, 'bot', { kind: 'text', text: result.text }, { id: result.answerId }))
      } else {
        const ctx = { chatbotId: conversation.chatbot_id, channel: conversation.channel, integrationId: conversation.integration_id }
        botStep(turn, result, ctx, contacts.get(conversation.contact_id)?.details ?? {})
      }
      write(turn, false, alsoWrite)
      return turn.messages
    },

    /**
     * What a widget shows on connect: the latest messages, or only those after one it has
     * when they fit in one batch. `hasMore` says older messages exist that were not sent.
     */
    history(conversationId: string, after?: string): { messages: Message[]; hasMore: boolean } {
      if (after) {
        const newer = messages.after(conversationId, after, HISTORY_LIMIT + 1)
        if (newer.length <= HISTORY_LIMIT) return { messages: newer, hasMore: false }
      }
      // A first connect, or a gap too long for one batch: the newest page, older on request.
      return messages.latest(conversationId, HISTORY_LIMIT)
    },

    olderThan: (conversationId: string, before: string) => messages.before(conversationId, before, HISTORY_LIMIT),
  }
}
