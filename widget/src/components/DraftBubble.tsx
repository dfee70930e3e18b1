import { Show } from 'solid-js'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'

/**
 * The bot's answer as it is written: text only (a text node, as in every bubble), growing in
 * place. Screen readers hear once that the bot is writing, then the stored message when it
 * replaces this bubble; the growing text is hidden from them, so that the polite log does not
 * read out every fragment. The log keeps it in view as it grows (pin-to-bottom.ts).
 */
export function DraftBubble(props: { text: string; botName: string; speech: Speech }) {
  return (
    <div class="msg bot draft">
      <span class="sr-only">{fillText(props.speech.t.is_writing, { name: props.botName })}</span>
      <Show
        when={props.text}
        fallback={
          <span class="typing" aria-hidden="true">
            <span />
            <span />
            <span />
          </span>
        }
      >
        <p class="text" dir="auto" aria-hidden="true">
          {props.text}
        </p>
      </Show>
    </div>
  )
}
