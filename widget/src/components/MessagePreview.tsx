import { Show } from 'solid-js'
import type { ChatMessage } from '../../../server/protocol/widget-protocol.ts'
import { previewText } from '../preview-text.ts'
import type { Speech } from '../speech.ts'
import { CloseIcon } from './Icons.tsx'

interface Props {
  message: ChatMessage | null
  botName: string
  speech: Speech
  onOpen: () => void
  onDismiss: () => void
}

/**
 * A card above the closed launcher with who wrote and the start of what they wrote; a click
 * opens the chat. The live region is always there (empty when there is nothing to show), so
 * screen readers announce a card that appears in it. Text only, never markup.
 */
export function MessagePreview(props: Props) {
  const sender = (message: ChatMessage) => (message.role === 'agent' ? message.author || props.speech.t.agent : props.botName)
  return (
    <div class="preview-region" role="status" aria-live="polite">
      <Show when={props.message}>
        {(message) => (
          <div class="preview">
            <button type="button" class="preview-open" onClick={() => props.onOpen()}>
              <span class="preview-sender">{sender(message())}</span>
              <span class="preview-text" dir="auto">{previewText(message().content, undefined, props.speech.t)}</span>
            </button>
            <button type="button" class="preview-dismiss" aria-label={props.speech.t.dismiss_preview} onClick={() => props.onDismiss()}>
              <CloseIcon />
            </button>
          </div>
        )}
      </Show>
    </div>
  )
}
