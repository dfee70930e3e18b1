import { createResource, createSignal, For, onCleanup, Show } from 'solid-js'
import { ApiError } from '../api.ts'
import type { SavedReply } from '../types.ts'
import { savedReplies } from './data.ts'
import { matchingReplies } from './saved-replies.ts'

export type SendResult = 'sent' | 'stale'

const TYPING_IDLE_MS = 3_000

/**
 * The reply box: Enter sends, Shift+Enter starts a new line. "Note" writes a private note
 * instead. `/` opens the saved replies (arrows choose, Enter or Tab inserts). While the
 * person types, the visitor sees "typing". A reply written while new messages arrived is
 * held (409) and offered again: read them, then send anyway or edit.
 */
export function Composer(props: {
  closed: boolean
  onSend: (text: string, mode: 'reply' | 'note', force: boolean) => Promise<SendResult>
  onTyping: (active: boolean) => void
}) {
  const [text, setText] = createSignal('')
  const [mode, setMode] = createSignal<'reply' | 'note'>('reply')
  const [error, setError] = createSignal('')
  const [stale, setStale] = createSignal(false)
  const [busy, setBusy] = createSignal(false)
  const [picked, setPicked] = createSignal(0)
  const [replies] = createResource(() => savedReplies().catch(() => []), { initialValue: [] })
  const suggestions = () => matchingReplies(text(), replies())
  let box: HTMLTextAreaElement | undefined

  let typingShown = false
  let idle: ReturnType<typeof setTimeout> | undefined
  const setTyping = (active: boolean) => {
    if (typingShown === active) return
    typingShown = active
    props.onTyping(active)
  }
  const typed = (value: string) => {
    setText(value)
    setStale(false)
    setPicked(0)
    clearTimeout(idle)
    if (!value || mode() === 'note' || value.startsWith('/')) return setTyping(false)
    setTyping(true)
    idle = setTimeout(() => setTyping(false), TYPING_IDLE_MS)
  }
  onCleanup(() => {
    clearTimeout(idle)
    setTyping(false)
  })
  const insert = (reply: SavedReply) => {
    setText(reply.text)
    setPicked(0)
    box?.focus()
  }
  const send = async (force = false) => {
    const message = text().trim()
    if (!message || busy()) return
    setBusy(true)
    setError('')
    try {
      const result = await props.onSend(message, mode(), force)
      if (result === 'stale') {
        setStale(true)
        return
      }
      setText('')
      setStale(false)
      clearTimeout(idle)
      setTyping(false)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.detail : 'It was not sent. Try again.')
    } finally {
      setBusy(false)
    }
  }
  const keyDown = (event: KeyboardEvent) => {
    const options = suggestions()
    if (options.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault()
        setPicked((picked() + (event.key === 'ArrowDown' ? 1 : options.length - 1)) % options.length)
        return
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault()
        insert(options[picked()] ?? options[0]!)
        return
      }
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault()
      void send()
    }
  }
  return (
    <form
      class="composer"
      classList={{ noting: mode() === 'note' }}
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
    >
      <div class="modes" role="tablist" aria-label="Write">
        <button type="button" role="tab" aria-selected={mode() === 'reply'} onClick={() => setMode('reply')}>
          Reply
        </button>
        <button type="button" role="tab" data-mode="note" aria-selected={mode() === 'note'} onClick={() => setMode('note')}>
          Private note
        </button>
      </div>
      <Show when={stale()}>
        <div class="stale" role="alert">
          <span>New messages arrived while you were writing. Read them first?</span>
          <button type="button" class="primary" data-action="send-anyway" onClick={() => void send(true)}>
            Send anyway
          </button>
          <button type="button" onClick={() => setStale(false)}>
            Edit
          </button>
        </div>
      </Show>
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={suggestions().length > 0}>
        <ul class="saved-replies" role="listbox" aria-label="Saved replies">
          <For each={suggestions()}>
            {(reply, index) => (
              <li role="option" aria-selected={index() === picked()} classList={{ picked: index() === picked() }} onMouseDown={(event) => (event.preventDefault(), insert(reply))}>
                <strong>/{reply.shortcut}</strong> <span class="muted">{reply.text}</span>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <textarea
        id="composer"
        ref={box}
        rows={2}
        maxLength={4096}
        placeholder={
          mode() === 'note'
            ? 'A note for the team: the visitor never sees it'
            : props.closed
              ? 'Closed; a reply reaches the visitor and hands the conversation to you'
              : 'Reply (Enter sends, Shift+Enter new line, / for saved replies)'
        }
        aria-label={mode() === 'note' ? 'Private note' : 'Reply'}
        value={text()}
        onInput={(event) => typed(event.currentTarget.value)}
        onKeyDown={keyDown}
      />
      <button type="submit" class="primary" disabled={busy() || !text().trim()}>
        {mode() === 'note' ? 'Add note' : 'Send'}
      </button>
    </form>
  )
}
