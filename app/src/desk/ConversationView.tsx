import { createResource, createSignal, For, onCleanup, Show } from 'solid-js'
import { ApiError } from '../api.ts'
import { me } from '../session.ts'
import type { ChatMessage, Conversation } from '../types.ts'
import { Composer } from './Composer.tsx'
import { ContextPanel } from './ContextPanel.tsx'
import * as data from './data.ts'
import { CHANNEL_NAMES, contactName } from './format.ts'
import type { Live } from './live.ts'
import { MessageView } from './MessageView.tsx'
import { markRead } from './read-marks.ts'

const STATUS_NAMES = { bot: 'with the bot', handoff: 'with a person', closed: 'closed' } as const

/** One conversation: its whole history, the actions on it, the reply box and its context. */
export function ConversationView(props: { chatbotId: string; conversationId: string; connection: Live; onBack: () => void; onChanged: () => void }) {
  const [conversation, { mutate: setConversation, refetch: refetchConversation }] = createResource(() => data.conversation(props.chatbotId, props.conversationId))
  const [messages, setMessages] = createSignal<ChatMessage[]>([])
  const [error, setError] = createSignal('')
  const [visitorTyping, setVisitorTyping] = createSignal(false)
  const [showContext, setShowContext] = createSignal(false)
  let log: HTMLOListElement | undefined

  const atBottom = () => !log || log.scrollHeight - log.scrollTop - log.clientHeight < 40
  const scrollDown = () => queueMicrotask(() => log && (log.scrollTop = log.scrollHeight))

  const show = (next: ChatMessage[]) => {
    const follow = atBottom()
    const known = messages()
    // Same messages: keep the nodes (and the reader's scroll) as they are.
    if (next.length === known.length && next.at(-1)?.id === known.at(-1)?.id) return
    setMessages(next)
    const last = next.at(-1)
    if (last) markRead(props.conversationId, last.created_at)
    if (follow) scrollDown()
  }
  const load = async () => {
    try {
      show(await data.messages(props.chatbotId, props.conversationId))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'The conversation could not be loaded.')
    }
  }
  void load().then(scrollDown)
  const stop = props.connection.onConversation(props.conversationId, (event) => {
    if (event.type === 'refresh') {
      void load()
      void refetchConversation()
    } else if (event.type === 'message') {
      if (!messages().some((known) => known.id === event.message.id)) show([...messages(), event.message])
    } else if (event.type === 'status') {
      const current = conversation()
      if (current) setConversation({ ...current, status: event.status })
    } else if (event.type === 'typing' && event.from === 'visitor') {
      setVisitorTyping(event.active)
    }
  })
  onCleanup(stop)

  const act = async (status: Conversation['status']) => {
    setError('')
    try {
      const changed = await data.setStatus(props.chatbotId, props.conversationId, status)
      setConversation({ ...conversation()!, ...changed })
      props.onChanged()
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.detail : 'The change failed.')
    }
  }
  const send = async (text: string) => {
    const sent = await data.reply(props.chatbotId, props.conversationId, text, me()?.user.display_name ?? 'Agent')
    if (!messages().some((known) => known.id === sent.id)) show([...messages(), sent])
    scrollDown()
    const current = conversation()
    if (current && current.status !== 'handoff') setConversation({ ...current, status: 'handoff' })
    props.onChanged()
  }

  return (
    <section class="conversation" aria-label="Conversation" classList={{ 'context-open': showContext() }}>
      <header class="conversation-head">
        <button type="button" class="back link" onClick={() => props.onBack()} aria-label="Back to the list">
          ←
        </button>
        <div class="title">
          <h2>{conversation() ? contactName(conversation()!) : '…'}</h2>
          <Show when={conversation()}>
            {(current) => (
              <span class="muted">
                {CHANNEL_NAMES[current().channel] ?? current().channel} · <span class={`status status-${current().status}`}>{STATUS_NAMES[current().status]}</span>
              </span>
            )}
          </Show>
        </div>
        <div class="actions">
          <Show when={conversation()?.status !== 'handoff'}>
            <button type="button" data-action="take-over" onClick={() => void act('handoff')}>
              Take over
            </button>
          </Show>
          <Show when={conversation()?.status === 'handoff'}>
            <button type="button" data-action="hand-back" onClick={() => void act('bot')}>
              Hand back
            </button>
          </Show>
          <Show when={conversation()?.status !== 'closed'}>
            <button type="button" data-action="close" onClick={() => void act('closed')}>
              Close
            </button>
          </Show>
          <button type="button" class="context-toggle" aria-pressed={showContext()} onClick={() => setShowContext((shown) => !shown)}>
            Context
          </button>
        </div>
      </header>
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <ol class="messages" ref={log} aria-live="polite">
        <For each={messages()}>{(message) => <MessageView message={message} visitorName={conversation() ? contactName(conversation()!) : 'Visitor'} />}</For>
      </ol>
      <Show when={visitorTyping()}>
        <p class="typing">The visitor is typing…</p>
      </Show>
      <Composer chatbotId={props.chatbotId} conversationId={props.conversationId} closed={conversation()?.status === 'closed'} onSend={send} />
      <Show when={conversation()}>{(current) => <ContextPanel conversation={current()} onClose={() => setShowContext(false)} />}</Show>
    </section>
  )
}
