import { Show } from 'solid-js'

/**
 * The bot's answer as it is written: text only (a text node, as in every bubble), growing in
 * place. Screen readers hear once that the bot is writing, then the stored message when it
 * replaces this bubble; the growing text is hidden from them, so that the polite log does not
 * read out every fragment. The log keeps it in view as it grows (pin-to-bottom.ts).
 */
export function DraftBubble(props: { text: string; botName: string }) {
  return (
    <div class="msg bot draft">
      <span class="sr-only">{props.botName} is writing…</span>
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
        <p class="text" aria-hidden="true">
          {props.text}
        </p>
      </Show>
    </div>
  )
}
