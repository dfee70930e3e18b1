import { createComputed, createEffect, createSignal, For, type JSX, on, onCleanup, onMount, Show } from 'solid-js'
import type { ChatMessage, Content } from '../../../server/protocol/widget-protocol.ts'
import type { Draft } from '../drafts.ts'
import type { Outgoing } from '../session.ts'
import { DraftBubble } from './DraftBubble.tsx'
import { AgentFace } from './AgentFace.tsx'
import { MessageContent, type ReplyHandler } from './MessageContent.tsx'
import { PendingFile } from './PendingFile.tsx'
import { pinToBottom } from '../pin-to-bottom.ts'
import { quietLog } from '../quiet-log.ts'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'

interface Props {
  messages: ChatMessage[]
  outgoing: Outgoing[]
  /** Shown as the chatbot's first bubble until the conversation has messages. */
  greeting: string | null
  botName: string
  speech: Speech
  typing: 'bot' | 'agent' | null
  /** The latest conversation was closed: the log ends with a divider saying so. */
  ended: boolean
  /** Shown under the final "Conversation ended" divider (the end rating). */
  afterEnd?: JSX.Element
  /** Time labels above the messages that open a group (message-times.ts). */
  times?: Map<string, string>
  /** The visitor's message marked "Seen" (read by the bot or an agent). */
  seenId?: string | null
  hasMore: boolean
  /** Changes when history is drawn (not news): the log is silent while it is (quiet-log.ts). */
  historyDrawn?: number
  onLoadOlder: () => void
  onReply: ReplyHandler
  /** The visitor puts away a file that could not be sent. */
  onDismiss?: (client_id: string) => void
  /** The bot's answers being written, after the stored messages. */
  drafts?: Draft[]
}

/**
 * The conversation, announced politely to screen readers as it grows. Buttons and lists
 * answer only on the newest message: older choices are history.
 */
export function MessageList(props: Props) {
  let log: HTMLDivElement | undefined
  const lastId = () => props.messages.at(-1)?.id
  const [newBelow, setNewBelow] = createSignal(false)
  let pin: ReturnType<typeof pinToBottom> | undefined
  onMount(() => (pin = log && pinToBottom(log, setNewBelow)))
  onCleanup(() => pin?.stop())
  // A computation, not an effect: it runs before the new bubbles are put into the log.
  createComputed(on(() => props.historyDrawn, () => log && quietLog(log), { defer: true }))
  // What the visitor sends themselves is always shown, wherever they had scrolled.
  createEffect(on(() => props.outgoing.length, (count, before) => count > (before ?? count) && pin?.toBottom(), { defer: true }))
  // Earlier messages come in above: what the visitor was reading stays where it was.
  let fromBottom: number | null = null
  const loadOlder = () => {
    if (log) fromBottom = log.scrollHeight - log.scrollTop
    props.onLoadOlder()
  }
  createEffect(
    on(
      () => props.messages[0]?.id,
      () => {
        if (log && fromBottom !== null) log.scrollTop = log.scrollHeight - fromBottom
        fromBottom = null
      },
      { defer: true },
    ),
  )
  const t = () => props.speech.t
  const speaker = (message: ChatMessage) =>
    message.role === 'visitor' ? t().you : message.role === 'agent' ? message.author || t().agent : message.role === 'bot' ? props.botName : ''
  return (
    <div class="log-frame">
      <div class="log" role="log" aria-live="polite" aria-label={t().messages} tabindex="0" ref={log}>
        <Show when={props.hasMore}>
          <button type="button" class="older" onClick={loadOlder}>
            {t().show_earlier}
          </button>
        </Show>
        <Show when={props.greeting && props.messages.length === 0 && props.outgoing.length === 0}>
          <Bubble role="bot" speaker={props.botName}>
            <p class="text" dir="auto">{props.greeting}</p>
          </Bubble>
        </Show>
        <For each={props.messages}>
          {(message, index) => (
            <>
              <Show when={index() > 0 && props.messages[index() - 1]?.conversation_id !== message.conversation_id}>
                <Ended text={t().conversation_ended} />
              </Show>
              <Show when={props.times?.get(message.id)}>
                {(label) => <time class="time" dateTime={message.created_at}>{label()}</time>}
              </Show>
              <Bubble
                role={message.role}
                speaker={speaker(message)}
                author={message.role === 'agent' ? message.author || t().agent : undefined}
                avatar={message.author_avatar_url}
              >
                <MessageContent content={message.content} active={message.id === lastId()} onReply={props.onReply} speech={props.speech} />
              </Bubble>
              <Show when={message.id === props.seenId}>
                <span class="seen" data-not-news>
                  {t().seen}
                </span>
              </Show>
            </>
          )}
        </For>
        {/* By id, not by object: a delta updates the bubble in place instead of adding a new one to the log. */}
        <For each={(props.drafts ?? []).map((draft) => draft.message_id)}>
          {(id) => <DraftBubble text={props.drafts?.find((draft) => draft.message_id === id)?.text ?? ''} botName={props.botName} speech={props.speech} />}
        </For>
        <Show when={props.ended && props.messages.length > 0 && props.outgoing.length === 0}>
          <Ended text={t().conversation_ended} />
          {props.afterEnd}
        </Show>
        <For each={props.outgoing}>
          {(item) => (
            <Bubble role="visitor" speaker={t().you} notDelivered={t().not_delivered} remove={t().remove} pending={!item.failed} failed={item.failed} onDismiss={item.file && item.failed ? () => props.onDismiss?.(item.client_id) : undefined}>
              <Show when={item.file} fallback={<MessageContent content={item.content as Content} active={false} onReply={props.onReply} speech={props.speech} />}>
                {(file) => <PendingFile file={file()} sending={!item.failed} speech={props.speech} />}
              </Show>
            </Bubble>
          )}
        </For>
        <Show when={props.typing}>
          <div class="msg bot typing" data-not-news aria-label={props.typing === 'agent' ? t().agent_is_typing : fillText(t().is_typing, { name: props.botName })} role="status">
            <span />
            <span />
            <span />
          </div>
        </Show>
      </div>
      <Show when={newBelow()}>
        <button type="button" class="new-below" onClick={() => pin?.toBottom()}>
          {t().new_message}
        </button>
      </Show>
    </div>
  )
}

/** Where one conversation stopped: closed by a person or by the flow. A new message starts the next. */
function Ended(props: { text: string }) {
  return (
    <div class="ended" role="separator" aria-label={props.text}>
      <span>{props.text}</span>
    </div>
  )
}

function Bubble(props: {
  role: ChatMessage['role']
  speaker: string
  author?: string
  avatar?: string
  pending?: boolean
  failed?: string
  /** "Not delivered: {reason}" and "Remove", in the widget's language (only the visitor's own bubbles need them). */
  notDelivered?: string
  remove?: string
  onDismiss?: () => void
  children: unknown
}) {
  return (
    <div class={`msg ${props.role}`} classList={{ pending: props.pending, failed: !!props.failed }}>
      <Show when={props.author}>
        {(author) => (
          <span class="agent-head">
            <AgentFace name={author()} src={props.avatar} />
            <span class="author">{author()}</span>
          </span>
        )}
      </Show>
      <Show when={props.speaker && !props.author}>
        <span class="sr-only">{props.speaker}: </span>
      </Show>
      {props.children as never}
      <Show when={props.failed}>
        <span class="error-note" role="alert">
          {fillText(props.notDelivered ?? '{reason}', { reason: props.failed ?? '' })}
        </span>
      </Show>
      <Show when={props.onDismiss}>
        {(dismiss) => (
          <button type="button" class="dismiss" onClick={() => dismiss()()}>
            {props.remove}
          </button>
        )}
      </Show>
    </div>
  )
}
