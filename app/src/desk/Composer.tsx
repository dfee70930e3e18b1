import { createSignal, onCleanup, Show } from 'solid-js'
import { ApiError } from '../api.ts'
import * as data from './data.ts'

const TYPING_IDLE_MS = 3_000

/**
 * The reply box: Enter sends, Shift+Enter starts a new line. While the agent types, the
 * visitor sees "typing" (told once, then again only after a pause).
 */
export function Composer(props: { chatbotId: string; conversationId: string; closed: boolean; onSend: (text: string) => Promise<void> }) {
  const [text, setText] = createSignal('')
  const [error, setError] = createSignal('')
  const [busy, setBusy] = createSignal(false)
  let typingShown = false
  let idle: ReturnType<typeof setTimeout> | undefined
  const setTyping = (active: boolean) => {
    if (typingShown === active) return
    typingShown = active
    void data.typing(props.chatbotId, props.conversationId, active).catch(() => {})
  }
  const typed = (value: string) => {
    setText(value)
    clearTimeout(idle)
    if (!value) return setTyping(false)
    setTyping(true)
    idle = setTimeout(() => setTyping(false), TYPING_IDLE_MS)
  }
  onCleanup(() => {
    clearTimeout(idle)
    setTyping(false)
  })
  const send = async () => {
    const message = text().trim()
    if (!message || busy()) return
    setBusy(true)
    setError('')
    try {
      await props.onSend(message)
      setText('')
      clearTimeout(idle)
      typingShown = false
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.detail : 'The reply was not sent.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <textarea
        id="composer"
        rows={2}
        maxLength={4096}
        placeholder={props.closed ? 'This conversation is closed; a reply reopens it with you.' : 'Reply to the visitor (Enter sends, Shift+Enter for a new line)'}
        aria-label="Reply"
        value={text()}
        onInput={(event) => typed(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault()
            void send()
          }
        }}
      />
      <button type="submit" class="primary" disabled={busy() || !text().trim()}>
        Send
      </button>
    </form>
  )
}
