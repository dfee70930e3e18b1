import { createEffect, createSignal, on, Show } from 'solid-js'
import type { WidgetConfigValues } from '../../../server/protocol/widget-config-defaults.ts'
import type { ChatModule } from '../load-chat.ts'
import type { Session } from '../session.ts'
import { textColorOn } from '../settings.ts'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'
import { ChatIcon, CloseIcon } from './Icons.tsx'
import { MessagePreview } from './MessagePreview.tsx'

interface Props {
  session: Session
  settings: WidgetConfigValues
  greeting: string | null
  /** The widget's language (widget_config.locale, else the visitor's browser): English until its texts have come. */
  speech: Speech
  css: string
  /** The open chat's stylesheet (widget-chat.css on the Parley server), loaded when the chat first opens. */
  chatStylesheet: string
  /** The open chat's script (widget-chat.js), loaded when the chat first opens. */
  loadChat: () => Promise<ChatModule>
  warn: (message: string) => void
}

/** The launcher bubble, the preview of a message that came while closed, and, when open, the chat window; every widget_config value as a CSS variable. */
export function App(props: Props) {
  const s = props.session
  const c = props.settings
  let launcher: HTMLButtonElement | undefined
  let input: HTMLTextAreaElement | undefined
  const theme = {
    '--pw-primary': c.primary_color,
    '--pw-on-primary': textColorOn(c.primary_color),
    '--pw-secondary': c.secondary_color,
    '--pw-on-secondary': textColorOn(c.secondary_color),
    '--pw-background': c.background_color ?? '#ffffff',
    '--pw-on-background': textColorOn(c.background_color ?? '#ffffff'),
    '--pw-font-size': `${c.font_size}px`,
    '--pw-width': `${c.width}px`,
    '--pw-height': `${c.height}px`,
  }
  // Focus follows the window: into the composer on open, back to the bubble on close.
  createEffect(
    on(
      s.isOpen,
      (open, wasOpen) => {
        if (wasOpen === undefined) return
        queueMicrotask(() => (open ? input?.focus() : launcher?.focus()))
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
  return (
    <div class={`root ${c.position}${ready() ? '' : ' chat-loading'}`} style={theme} dir={props.speech.dir} lang={props.speech.tag}>
      <style>{props.css}</style>
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
          launcher?.focus()
        }}
      />
      <button
        type="button"
        class="launcher"
        classList={{ open: s.isOpen() }}
        ref={launcher}
        aria-expanded={s.isOpen()}
        aria-controls="parley-window"
        aria-label={s.isOpen() ? t().close_chat : launcherLabel()}
        onClick={() => s.setOpen(!s.isOpen())}
      >
        <Show when={s.isOpen()} fallback={<ChatIcon />}>
          <CloseIcon />
        </Show>
        <Show when={!s.isOpen()}>
          <span class="bubble-text">{c.bubble_text}</span>
        </Show>
        <Show when={!s.isOpen() && s.unread() > 0}>
          <span class="badge" aria-hidden="true">
            {s.unread() > 99 ? '99+' : s.unread()}
          </span>
        </Show>
      </button>
    </div>
  )
}
