import { useNavigate } from '@solidjs/router'
import { createSignal, Show } from 'solid-js'
import { ApiError } from '../api.ts'
import { acceptLink } from '../session.ts'

const TITLES = {
  setup: 'Create the first admin',
  invite: 'Join your team on Parley',
  reset: 'Choose a new password',
} as const

/**
 * The page a one-time link opens (/app/setup, /app/invite, /app/reset-password). The token
 * is after `#`, so it never reached the server in the page request; it is read here, taken
 * out of the address bar at once, and sent only with the new password.
 */
export function LinkPage(props: { purpose: keyof typeof TITLES }) {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? ''
  if (token) history.replaceState(history.state, '', window.location.pathname)
  const navigate = useNavigate()
  const [error, setError] = createSignal(token ? '' : 'This link has no token. Open the whole link you were given.')
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
      <form class="auth-card" onSubmit={submit}>
        <h1>{TITLES[props.purpose]}</h1>
        <Show when={props.purpose === 'setup'}>
          <label>
            E-mail
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
        <Show when={error()}>
          <p class="form-error" role="alert">
            {error()}
          </p>
        </Show>
        <button type="submit" class="primary" disabled={busy() || !token}>
          {busy() ? 'Saving…' : 'Continue'}
        </button>
      </form>
    </main>
  )
}

function explain(error: ApiError): string {
  if (error.status === 404 || error.status === 410 || error.code.includes('token')) return 'This link has expired or was already used. Ask an admin for a new one.'
  return error.detail
}
