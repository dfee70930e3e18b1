import { EmailAsk } from './EmailAsk.tsx'
import { uploadFile } from '../upload-file.ts'
import { createMemo, createSignal, onCleanup, Show } from 'solid-js'
import type { WidgetConfigValues } from '../../../server/protocol/widget-config-defaults.ts'
import type { Session } from '../session.ts'
import { Composer } from './Composer.tsx'
import { BotAvatar } from './BotAvatar.tsx'
import { EndRating } from './EndRating.tsx'
import { CloseIcon } from './Icons.tsx'
import { MessageList } from './MessageList.tsx'
import { seenMessageId, timeLabels } from '../message-times.ts'
import type { Speech } from '../speech.ts'

interface Props {
  session: Session
  settings: WidgetConfigValues
  /** The widget's language: every text below comes from its catalogue. */
  speech: Speech
  greeting: string | null
  onClose: () => void
  inputRef: (input: HTMLTextAreaElement) => void
}

/** The open chat: header, messages, connection notices and the composer. Escape closes it. */
export function ChatWindow(props: Props) {
  const s = props.session
  let input: HTMLTextAreaElement | undefined
  // Relative times ("5 min ago") move on while the chat is open.
  const [now, setNow] = createSignal(Date.now())
  const ticker = setInterval(() => setNow(Date.now()), 30_000)
  onCleanup(() => clearInterval(ticker))
  const t = () => props.speech.t
  const times = createMemo(() => timeLabels(s.messages(), now(), props.speech.intl, t()))
  const seenId = () => seenMessageId(s.messages(), s.conversation()?.id, s.conversation()?.read_by_team?.up_to)
  // A clicked choice is disabled right away; keep the keyboard in the chat rather than on <body>.
  const reply = (reply_to: 'button' | 'row', id: string, title: string) => {
    s.sendReply(reply_to, id, title)
    input?.focus()
  }
  // Sending a rating locks its buttons, then the thanks replace them: the keyboard stays in the chat here too.
  const rate = (score: number, comment: string) => {
    s.rate(score, comment)
    input?.focus()
  }
  const sendFiles = (files: File[]) => {
    if (s.unavailable()) return
    for (const file of files) s.sendFile(file, uploadFile)
  }
  // A file dragged over the window shows where it would land; dropped anywhere on it, it is sent.
  const [dragging, setDragging] = createSignal(false)
  const carriesFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false
  return (
    <section
      id="parley-window"
      class="window"
      classList={{ dragging: dragging() }}
      role="dialog"
      aria-modal="false"
      aria-labelledby="parley-title"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation()
          props.onClose()
        }
      }}
      onDragOver={(event) => {
        if (!carriesFiles(event)) return
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false)
      }}
      onDrop={(event) => {
        if (!carriesFiles(event)) return
        event.preventDefault()
        setDragging(false)
        sendFiles([...(event.dataTransfer?.files ?? [])])
      }}
    >
      <header class="header">
        <BotAvatar src={props.settings.bot_avatar_url} icon={props.settings.bot_avatar_icon} />
        <h2 id="parley-title" class="title">
          {props.settings.bot_display_name}
        </h2>
        <button type="button" class="close" aria-label={t().close_chat} onClick={() => props.onClose()}>
          <CloseIcon />
        </button>
      </header>
      <MessageList
        messages={s.messages()}
        outgoing={s.outgoing()}
        greeting={props.greeting}
        botName={props.settings.bot_display_name}
        speech={props.speech}
        // A draft being written shows the bot at work itself (a caret, or dots while it is empty).
        typing={s.typing() === 'bot' && s.drafts().length > 0 ? null : s.typing()}
        drafts={s.drafts()}
        ended={s.conversation()?.status === 'closed'}
        times={times()}
        seenId={seenId()}
        afterEnd={
          <Show when={props.settings.rating}>
            {(scale) => <EndRating speech={props.speech} scale={scale()} rating={s.conversation()?.rating ?? null} error={s.ratingError()} onRate={rate} />}
          </Show>
        }
        hasMore={s.hasMore()}
        historyDrawn={s.historyDrawn()}
        onLoadOlder={s.loadOlder}
        onReply={reply}
        onDismiss={s.dismissOutgoing}
      />
      <Show when={s.conversation()?.status === 'handoff' && (s.conversation()?.ask_email || s.emailLeft())}>
        <EmailAsk speech={props.speech} left={s.emailLeft()} onLeave={s.leaveEmail} />
      </Show>
      <Show when={s.unavailable()}>
        <p class="notice" role="status">
          {t().unavailable}
        </p>
      </Show>
      <Show when={!s.unavailable() && s.connection() === 'reconnecting'}>
        <p class="notice offline" role="status">
          {t().offline_reconnecting}
        </p>
      </Show>
      <Composer speech={props.speech} disabled={s.unavailable()} onSend={s.sendText} onTyping={s.sendTyping} onFiles={sendFiles} ref={(el) => {
          input = el
          props.inputRef(el)
        }}
      />
    </section>
  )
}
