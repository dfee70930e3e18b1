import { createEffect, createSignal, on, Show } from 'solid-js'
import type { WidgetConfigValues } from '../../../server/protocol/widget-config-defaults.ts'
import type { ChatModule } from '../load-chat.ts'
import type { Session } from '../session.ts'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'
import type { Shell } from '../shell.ts'
import { MessagePreview } from './MessagePreview.tsx'

interface Props {
  session: Session
  settings: WidgetConfigValues
  greeting: string | null
  /** The widget's language (widget_config.locale, else the visitor's browser): English until its texts have come. */
  speech: Speech
  /** The bubble and the root widget.js drew (shell.ts): the root carries the theme, the launcher is driven from here. */
  shell: Shell
  /** The open chat's stylesheet (widget-chat.css on the Parley server), loaded when the chat first opens. */
  chatStylesheet: string
  /** The open chat's script (widget-chat.js), loaded when the chat first opens. */
  loadChat: () => Promise<ChatModule>
  warn: (message: string) => void
}

/**
 * The preview of a message that came while closed and, when open, the chat window, drawn in
 * the shell's layer; the launcher bubble (drawn by widget.js before this script came) shows
 * what the session says: open or closed, the unread count, its label.
 */
export function App(props: Props) {
  const s = props.session
  const c = props.settings
  const launcher = props.shell.launcher
  let input: HTMLTextAreaElement | undefined
  // Focus follows the window: into the composer on open, back to the bubble on close.
  createEffect(
    on(
      s.isOpen,
      (open, wasOpen) => {
        if (wasOpen === undefined) return
        queueMicrotask(() => (open ? input?.focus() : launcher.focus()))
      },
    ),
  )
  // The chat window's code and stylesheet load on the first open; it stays hidden until its
  // stylesheet has arrived (or failed: then unstyled beats nothing).
  const [chatWanted, setChatWanted] = createSignal(false)
  const [chatStyled, setChatStyled] = createSignal(false)
  const [chat, setChat] = createSignal<ChatModule | null>(null)
  let loading = false
  createEffect(() => {
    if (!s.isOpen()) return
    setChatWanted(true)
    if (chat() || loading) return
    loading = true
    props.loadChat().then(setChat, (error: Error) => {
      // Closed again so that the next click tries again.
      loading = false
      props.warn(`${error.message}; the chat cannot open`)
      s.setOpen(false)
    })
  })
  const ready = () => chatStyled() && chat() !== null
  // A hidden window cannot take the focus: on the first open it moves in once it is ready.
  createEffect(
    on(ready, (isReady) => {
      if (isReady && s.isOpen()) queueMicrotask(() => input?.focus())
    }),
  )
  const t = () => props.speech.t
  const launcherLabel = () => (s.unread() > 0 ? fillText(t().open_chat_unread, { bubble: c.bubble_text, count: s.unread() }) : c.bubble_text)
  createEffect(() => props.shell.setChatLoading(!ready()))
  createEffect(() => props.shell.setLauncher({ open: s.isOpen(), unread: s.unread(), label: s.isOpen() ? t().close_chat : launcherLabel() }))
  props.shell.onClick(() => s.setOpen(!s.isOpen()))
  return (
    <>
      <Show when={chatWanted()}>
        <link rel="stylesheet" href={props.chatStylesheet} onLoad={() => setChatStyled(true)} onError={() => setChatStyled(true)} />
      </Show>
      <Show when={s.isOpen() && chat()}>
        {(loaded) => {
          const Window = loaded().ChatWindow
          return <Window session={s} settings={c} speech={props.speech} greeting={props.greeting} onClose={() => s.setOpen(false)} inputRef={(el) => (input = el)} />
        }}
      </Show>
      <MessagePreview
        message={s.isOpen() ? null : s.preview()}
        botName={c.bot_display_name}
        speech={props.speech}
        onOpen={() => s.setOpen(true)}
        onDismiss={() => {
          s.dismissPreview()
          launcher.focus()
        }}
      />
    </>
  )
}
