import { createSignal, onCleanup } from 'solid-js'
import { UPLOAD_TYPES } from '../../../server/protocol/upload-rules.ts'
import type { Speech } from '../speech.ts'
import { AttachIcon, SendIcon } from './Icons.tsx'

const TYPING_IDLE_MS = 3000

/**
 * The text box: Enter sends, Shift+Enter breaks the line; typing is announced while it lasts.
 * The paperclip picks files (pictures and PDFs), and a file pasted into the box is sent too.
 */
export function Composer(props: {
  speech: Speech
  disabled: boolean
  onSend: (text: string) => void
  onTyping: (active: boolean) => void
  onFiles: (files: File[]) => void
  ref: (input: HTMLTextAreaElement) => void
}) {
  let picker: HTMLInputElement | undefined
  const [text, setText] = createSignal('')
  let typing = false
  let idle: ReturnType<typeof setTimeout> | undefined
  const stopTyping = () => {
    clearTimeout(idle)
    if (typing) props.onTyping(false)
    typing = false
  }
  onCleanup(stopTyping)
  const input = (value: string) => {
    setText(value)
    if (!typing && value.trim()) props.onTyping(true)
    typing = value.trim() !== ''
    clearTimeout(idle)
    if (typing) idle = setTimeout(stopTyping, TYPING_IDLE_MS)
  }
  const send = () => {
    if (!text().trim() || props.disabled) return
    props.onSend(text())
    setText('')
    stopTyping()
  }
  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <button type="button" class="attach" aria-label={props.speech.t.attach_file} title={props.speech.t.attach_hint} disabled={props.disabled} onClick={() => picker?.click()}>
        <AttachIcon />
      </button>
      <input
        ref={picker}
        class="sr-only"
        type="file"
        multiple
        tabIndex={-1}
        aria-hidden="true"
        accept={UPLOAD_TYPES.join(',')}
        onChange={(event) => {
          const files = [...(event.currentTarget.files ?? [])]
          event.currentTarget.value = ''
          if (files.length > 0) props.onFiles(files)
        }}
      />
      <label class="sr-only" for="parley-input">
        {props.speech.t.message_label}
      </label>
      <textarea
        id="parley-input"
        ref={props.ref}
        rows={1}
        maxLength={4096}
        placeholder={props.speech.t.placeholder}
        // What the visitor types runs in its own direction (Latin in an Arabic widget, or the
        // reverse); empty, the placeholder follows the widget's.
        dir={text() ? 'auto' : undefined}
        enterkeyhint="send"
        value={text()}
        disabled={props.disabled}
        onInput={(event) => input(event.currentTarget.value)}
        onPaste={(event) => {
          const files = [...(event.clipboardData?.files ?? [])]
          if (files.length === 0 || props.disabled) return
          event.preventDefault()
          props.onFiles(files)
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault()
            send()
          }
        }}
      />
      <button type="submit" class="send" aria-label={props.speech.t.send} disabled={props.disabled || !text().trim()}>
        <SendIcon />
      </button>
    </form>
  )
}
