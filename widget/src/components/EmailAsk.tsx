import { createSignal, Show } from 'solid-js'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'

/**
 * Outside the team's business hours, in place of a promise of an answer here: the visitor
 * leaves an e-mail (kept among their contact details), and the team answers there.
 */
export function EmailAsk(props: { speech: Speech; left: string | null; onLeave: (email: string) => boolean }) {
  const [email, setEmail] = createSignal('')
  const t = () => props.speech.t
  return (
    <div class="email-ask" role="group" aria-label={t().email_label}>
      <Show when={props.left} fallback={
        <form
          onSubmit={(event) => {
            event.preventDefault()
            const typed = email().trim()
            if (typed) props.onLeave(typed)
          }}
        >
          <p>{t().email_ask}</p>
          <div class="email-row">
            <input type="email" required autocomplete="email" maxLength={254} aria-label={t().email_label} placeholder={t().email_label} value={email()} onInput={(event) => setEmail(event.currentTarget.value)} />
            <button type="submit">{t().email_send}</button>
          </div>
        </form>
      }>
        {(left) => <p role="status">{fillText(t().email_thanks, { email: left() })}</p>}
      </Show>
    </div>
  )
}
