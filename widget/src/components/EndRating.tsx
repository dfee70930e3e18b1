import { createSignal, For, type JSX, Show } from 'solid-js'
import type { RatingScaleName } from '../../../server/protocol/widget-config-defaults.ts'
import type { ConversationRating } from '../../../server/protocol/widget-protocol.ts'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'
import { ThumbIcon } from './Icons.tsx'

interface Props {
  speech: Speech
  scale: RatingScaleName
  /** The stored rating, once given (from this tab or another). */
  rating: ConversationRating | null
  /** Why the server refused the last try, if it did. */
  error: string | null
  onRate: (score: number, comment: string) => void
}

const THUMBS: { score: number; label: 'good' | 'bad'; glyph: () => JSX.Element }[] = [
  { score: 1, label: 'good', glyph: () => <ThumbIcon /> },
  { score: 0, label: 'bad', glyph: () => <ThumbIcon down /> },
]
const STARS = [1, 2, 3, 4, 5].map((score) => ({ score, label: null, glyph: () => '\u2605' as JSX.Element }))

/** Under the "Conversation ended" divider: pick a score, add a comment if you like, send once. */
export function EndRating(props: Props) {
  const [score, setScore] = createSignal<number | null>(null)
  const [comment, setComment] = createSignal('')
  const [sent, setSent] = createSignal(false)
  const t = () => props.speech.t
  const choices = () => (props.scale === 'thumbs' ? THUMBS : STARS)
  const given = () => props.rating
  /** Sent and waiting for the server: a refusal unlocks it again. */
  const locked = () => sent() && !props.error
  return (
    <div class="rating" role="group" aria-label={t().rate_conversation}>
      <Show
        when={!given()}
        fallback={
          <p role="status">
            {given()!.scale === 'stars' ? fillText(t().thanks_stars, { score: given()!.score }) : t().thanks}
          </p>
        }
      >
        <p>{t().rating_question}</p>
        <div>
          <For each={choices()}>
            {(choice) => (
              <button
                type="button"
                classList={{ lit: props.scale === 'stars' ? (score() ?? 0) >= choice.score : score() === choice.score }}
                aria-label={choice.label ? t()[choice.label] : fillText(t().stars_of_five, { score: choice.score })}
                aria-pressed={score() === choice.score}
                disabled={locked()}
                onClick={() => setScore(choice.score)}
              >
                {choice.glyph()}
              </button>
            )}
          </For>
        </div>
        <Show when={score() !== null}>
          <label class="sr-only" for="parley-rating-comment">
            {t().comment_label}
          </label>
          <textarea
            id="parley-rating-comment"
            rows={2}
            maxLength={1000}
            placeholder={t().comment_placeholder}
            value={comment()}
            disabled={locked()}
            onInput={(event) => setComment(event.currentTarget.value)}
          />
          <button
            type="button"
            class="send-rating"
            disabled={locked()}
            onClick={() => {
              setSent(true)
              props.onRate(score()!, comment())
            }}
          >
            {t().send_rating}
          </button>
        </Show>
        <Show when={props.error}>
          <p class="error-note" role="alert">
            {props.error}
          </p>
        </Show>
      </Show>
    </div>
  )
}
