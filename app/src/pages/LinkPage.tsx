import { A, useNavigate } from '@solidjs/router'
import { createResource, createSignal, Match, Show, Switch } from 'solid-js'
import { ApiError } from '../api.ts'
import { ErrorLine } from '../ErrorLine.tsx'
import { acceptLink, peekLink } from '../session.ts'

const TITLES = {
  setup: 'Create the first admin',
  invite: 'Join your team on Parley',
  reset: 'Choose a new password',
} as const

/** The commands that print a new first-admin link, in the two ways Parley runs (README, server/cli/first-start.ts). */
const NEW_ADMIN_COMMANDS = ['npm run parley -- users create --email you@example.com --name "Your name" --role admin', './parley users create --email you@example.com --name "Your name" --role admin']

/**
 * The page a one-time link opens (/app/setup, /app/invite, /app/reset-password). The token
 * is after `#`, so it never reached the server in the page request; it is read here, taken
 * out of the address bar at once, and asked about first (POST /auth/link): a used or expired
 * link says so, and how to get a new one, before any form; an invite names the e-mail the
 * person will sign in with. The token is spent only with the new password.
 */
export function LinkPage(props: { purpose: keyof typeof TITLES }) {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? ''
  if (token) history.replaceState(history.state, '', window.location.pathname)
  const navigate = useNavigate()
  const [link] = createResource(
    () => token || null,
    async (value) => {
      try {
        return { ok: true as const, ...(await peekLink(value)) }
      } catch (failure) {
        if (failure instanceof ApiError && failure.code === 'invalid_token') return { ok: false as const }
        throw failure
      }
    },
  )
  const usable = () => {
    const found = link()
    return found?.ok ? found : undefined
  }
  const [error, setError] = createSignal('')
  const [busy, setBusy] = createSignal(false)
  const submit = async (event: SubmitEvent) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    const password = String(form.get('password') ?? '')
    if (password !== String(form.get('repeat') ?? '')) return setError('The two passwords differ.')
    setBusy(true)
    setError('')
    try {
      const name = String(form.get('display_name') ?? '').trim()
      await acceptLink({
        token,
        password,
        ...(props.purpose === 'setup' ? { email: String(form.get('email') ?? '') } : {}),
        ...(name ? { display_name: name } : {}),
      })
      navigate('/', { replace: true })
    } catch (failure) {
      setError(failure instanceof ApiError ? explain(failure) : 'Something went wrong.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="auth-page">
      <Switch>
        <Match when={!token}>
          <DeadLink purpose={props.purpose} why="This link has no token. Open the whole link you were given." />
        </Match>
        <Match when={link.loading}>
          <section class="auth-card" aria-busy="true">
            <h1>{TITLES[props.purpose]}</h1>
            <p class="muted">Checking your link…</p>
          </section>
        </Match>
        <Match when={link.error}>
          <DeadLink purpose={props.purpose} why="Parley could not be reached to check this link. Reload the page to try again." />
        </Match>
        <Match when={link()?.ok === false}>
          <DeadLink purpose={props.purpose} why="This link was already used, or it has expired." />
        </Match>
        <Match when={usable()}>
          {(known) => (
            <form class="auth-card" onSubmit={submit}>
              <h1>{TITLES[props.purpose]}</h1>
              <Show when={known().email}>
                {(email) => (
                  <p class="link-email">
                    You will sign in as <strong data-email>{email()}</strong>.
                  </p>
                )}
              </Show>
              <Show when={props.purpose === 'setup'}>
                <label>
                  E-mail <span class="hint">(you sign in with it)</span>
                  <input name="email" type="email" autocomplete="username" required />
                </label>
              </Show>
              <Show when={props.purpose !== 'reset'}>
                <label>
                  Your name
                  <input name="display_name" autocomplete="name" maxLength={100} required={props.purpose === 'setup'} />
                </label>
              </Show>
              <label>
                New password <span class="hint">(at least 10 characters)</span>
                <input name="password" type="password" autocomplete="new-password" minLength={10} maxLength={256} required />
              </label>
              <label>
                Repeat it
                <input name="repeat" type="password" autocomplete="new-password" minLength={10} maxLength={256} required />
              </label>
              <ErrorLine error={error()} />
              <button type="submit" class="primary" disabled={busy()}>
                {busy() ? 'Saving…' : 'Continue'}
              </button>
            </form>
          )}
        </Match>
      </Switch>
    </main>
  )
}

/** A link that cannot be used: why, and the way on (sign in, or a new link and how to get one). */
function DeadLink(props: { purpose: keyof typeof TITLES; why: string }) {
  return (
    <section class="auth-card dead-link" data-dead-link>
      <h1>{TITLES[props.purpose]}</h1>
      <p class="form-error" role="alert">
        {props.why}
      </p>
      <Switch>
        <Match when={props.purpose === 'setup'}>
          <p>
            If you created the first admin with it, <A href="/">sign in</A>. Otherwise make a new link on the server, in the folder Parley runs from: from a checkout
          </p>
          <pre>
            <code>{NEW_ADMIN_COMMANDS[0]}</code>
          </pre>
          <p>or with the downloaded binary</p>
          <pre>
            <code>{NEW_ADMIN_COMMANDS[1]}</code>
          </pre>
          <p class="muted">It prints a link that works once, for 7 days. Parley's start-up text shows the command for the way it was started.</p>
        </Match>
        <Match when={true}>
          <p>
            Ask an admin of your team for a new link (in the console: People, then <em>{props.purpose === 'invite' ? 'New invite link' : 'Password reset link'}</em> next to your name). Already set your password? <A href="/">Sign in</A>.
          </p>
        </Match>
      </Switch>
    </section>
  )
}

function explain(error: ApiError): string {
  if (error.status === 404 || error.status === 410 || error.code.includes('token')) return 'This link has expired or was already used. Ask an admin for a new one.'
  return error.detail
}
