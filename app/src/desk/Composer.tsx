import { createResource, createSignal, For, onCleanup, Show } from 'solid-js'
import { ApiError } from '../api.ts'
import { UPLOAD_TYPES } from '../../../server/protocol/upload-rules.ts'
import type { SavedReply } from '../types.ts'
import { savedReplies } from './data.ts'
import { matchingReplies } from './saved-replies.ts'
import { t } from '../i18n/language.ts'

export type SendResult = 'sent' | 'stale'

/** What the server keeps (told by the bytes there; by the browser's type here, to refuse early): the widget's list. */
const FILE_TYPES: readonly string[] = UPLOAD_TYPES

const TYPING_IDLE_MS = 3_000

/**
 * The reply box: Enter sends, Shift+Enter starts a new line. "Note" writes a private note
 * instead. `/` opens the saved replies (arrows choose, Enter or Tab inserts). While the
 * person types, the visitor sees "typing". A reply written while new messages arrived is
 * held (409) and offered again: read them, then send anyway or edit. Files (a picture or a
 * PDF) are sent with the paperclip, by pasting or by dropping them on the box, with their
 * progress shown and the server's refusal said as it said it.
 */
export function Composer(props: {
  closed: boolean
  onSend: (text: string, mode: 'reply' | 'note', force: boolean) => Promise<SendResult>
  onTyping: (active: boolean) => void
  onAttach: (file: File, onProgress: (fraction: number) => void) => Promise<void>
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
  let picker: HTMLInputElement | undefined
  const [upload, setUpload] = createSignal<{ name: string; fraction: number } | null>(null)
  const [dragging, setDragging] = createSignal(false)

  /** One file after another, so that each shows its own progress and its own refusal. */
  const attach = async (files: File[]) => {
    if (files.length === 0 || upload()) return
    setError('')
    for (const file of files) {
      if (file.type && !FILE_TYPES.includes(file.type)) {
        setError(t('desk.fileRefused', { name: file.name, allowed: t('desk.filesAllowed') }))
        continue
      }
      setUpload({ name: file.name, fraction: 0 })
      try {
        await props.onAttach(file, (fraction) => setUpload({ name: file.name, fraction }))
      } catch (failure) {
        setError(t('desk.fileFailed', { name: file.name, reason: failure instanceof ApiError ? failure.detail : t('desk.tryAgain') }))
      } finally {
        setUpload(null)
      }
    }
  }
  const filesOf = (list: FileList | null | undefined) => Array.from(list ?? [])

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
      setError(failure instanceof ApiError ? failure.detail : t('desk.notSent'))
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
  /** The tab pattern's keys: the arrows (Home, End) pick the other mode and move the focus to it. */
  const switchByKey = (event: KeyboardEvent) => {
    const picked = { ArrowLeft: 'reply', ArrowRight: 'note', ArrowUp: 'reply', ArrowDown: 'note', Home: 'reply', End: 'note' }[event.key] as 'reply' | 'note' | undefined
    if (!picked) return
    event.preventDefault()
    setMode(picked)
    document.getElementById(`mode-${picked}`)?.focus()
  }
  return (
    <form
      class="composer"
      classList={{ noting: mode() === 'note', dragging: dragging() }}
      onSubmit={(event) => {
        event.preventDefault()
        void send()
      }}
      onDragOver={(event) => {
        if (mode() !== 'reply' || !event.dataTransfer?.types.includes('Files')) return
        event.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        setDragging(false)
        if (mode() !== 'reply') return
        const files = filesOf(event.dataTransfer?.files)
        if (files.length === 0) return
        event.preventDefault()
        void attach(files)
      }}
    >
      <div class="modes" role="tablist" aria-label={t('desk.write')} onKeyDown={switchByKey}>
        <button type="button" role="tab" id="mode-reply" aria-controls="composer" aria-selected={mode() === 'reply'} tabindex={mode() === 'reply' ? 0 : -1} onClick={() => setMode('reply')}>
          {t('desk.reply')}
        </button>
        <button type="button" role="tab" id="mode-note" data-mode="note" aria-controls="composer" aria-selected={mode() === 'note'} tabindex={mode() === 'note' ? 0 : -1} onClick={() => setMode('note')}>
          {t('desk.privateNoteMode')}
        </button>
      </div>
      <Show when={stale()}>
        <div class="stale" role="alert">
          <span>{t('desk.stale')}</span>
          <button type="button" class="primary" data-action="send-anyway" onClick={() => void send(true)}>
            {t('desk.sendAnyway')}
          </button>
          <button type="button" onClick={() => setStale(false)}>
            {t('desk.edit')}
          </button>
        </div>
      </Show>
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <Show when={upload()}>
        {(current) => (
          <p class="uploading" role="status">
            <span>{t('desk.sending', { name: current().name })}</span>
            <progress max="1" value={current().fraction} aria-label={t('desk.sendingLabel', { name: current().name })} />
          </p>
        )}
      </Show>
      <Show when={suggestions().length > 0}>
        <ul class="saved-replies" role="listbox" aria-label={t('desk.savedReplies')}>
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
            ? t('desk.notePlaceholder')
            : props.closed
              ? t('desk.closedPlaceholder')
              : t('desk.replyPlaceholder')
        }
        aria-label={mode() === 'note' ? t('desk.privateNoteMode') : t('desk.reply')}
        value={text()}
        onInput={(event) => typed(event.currentTarget.value)}
        onKeyDown={keyDown}
        onPaste={(event) => {
          const files = filesOf(event.clipboardData?.files)
          if (files.length === 0 || mode() !== 'reply') return
          event.preventDefault()
          void attach(files)
        }}
      />
      <Show when={mode() === 'reply'}>
        <input
          ref={picker}
          type="file"
          class="file-picker"
          accept={FILE_TYPES.join(',')}
          multiple
          hidden
          data-testid="attach-input"
          onChange={(event) => {
            const files = filesOf(event.currentTarget.files)
            event.currentTarget.value = ''
            void attach(files)
          }}
        />
        <button type="button" class="attach" aria-label={t('desk.attachLabel')} title={t('desk.attachTitle')} disabled={upload() !== null} onClick={() => picker?.click()}>
          {/* Drawn, not an emoji: a desk without an emoji font would show an empty box. */}
          <svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">
            <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.5 3.5 0 0 1 5 5l-8.6 8.6a2 2 0 0 1-2.8-2.8l7.9-7.9" />
          </svg>
        </button>
      </Show>
      <button type="submit" class="primary" disabled={busy() || !text().trim()}>
        {mode() === 'note' ? t('desk.addNote') : t('desk.send')}
      </button>
    </form>
  )
}
