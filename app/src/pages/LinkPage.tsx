import { A, useNavigate } from '@solidjs/router'
import { createResource, createSignal, Match, Show, Switch } from 'solid-js'
import { ApiError } from '../api.ts'
import { ErrorLine } from '../ErrorLine.tsx'
import { acceptLink, peekLink } from '../session.ts'
import { rich, t, type TextKey } from '../i18n/language.ts'

const TITLES = {
  setup: 'pages.link.setup',
  invite: 'pages.link.invite',
  reset: 'pages.link.reset',
} as const satisfies Record<string, TextKey>

/** The commands that print a new first-admin link, in the two ways Parley runs (README, server/cli/first-start.ts). */
const newAdminCommands = (name: string) => [`npm run parley -- users create --email you@example.com --name "${name}" --role admin`, `./parley users create --email you@example.com --name "${name}" --role admin`]

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
    if (password !== String(form.get('repeat') ?? '')) return setError(t('pages.link.differ'))
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
      setError(failure instanceof ApiError ? explain(failure) : t('pages.link.wrong'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="auth-page">
      <Switch>
        <Match when={!token}>
          <DeadLink purpose={props.purpose} why={t('pages.link.noToken')} />
        </Match>
        <Match when={link.loading}>
          <section class="auth-card" aria-busy="true">
            <h1>{t(TITLES[props.purpose])}</h1>
            <p class="muted">{t('pages.link.checking')}</p>
          </section>
        </Match>
        <Match when={link.error}>
          <DeadLink purpose={props.purpose} why={t('pages.link.unreachable')} />
        </Match>
        <Match when={link()?.ok === false}>
          <DeadLink purpose={props.purpose} why={t('pages.link.spent')} />
        </Match>
        <Match when={usable()}>
          {(known) => (
            <form class="auth-card" onSubmit={submit}>
              <h1>{t(TITLES[props.purpose])}</h1>
              <Show when={known().email}>
                {(email) => (
                  <p class="link-email">
                    {rich('pages.link.signInAs', { email: <strong data-email>{email()}</strong> })}
                  </p>
                )}
              </Show>
              <Show when={props.purpose === 'setup'}>
                <label>
                  {t('pages.link.email')} <span class="hint">{t('pages.link.emailHint')}</span>
                  <input name="email" type="email" autocomplete="username" required />
                </label>
              </Show>
              <Show when={props.purpose !== 'reset'}>
                <label>
                  {t('pages.link.name')}
                  <input name="display_name" autocomplete="name" maxLength={100} required={props.purpose === 'setup'} />
                </label>
              </Show>
              <label>
                {t('pages.link.password')} <span class="hint">{t('pages.link.passwordHint')}</span>
                <input name="password" type="password" autocomplete="new-password" minLength={10} maxLength={256} required />
              </label>
              <label>
                {t('pages.link.repeat')}
                <input name="repeat" type="password" autocomplete="new-password" minLength={10} maxLength={256} required />
              </label>
              <ErrorLine error={error()} />
              <button type="submit" class="primary" disabled={busy()}>
                {busy() ? t('pages.link.saving') : t('pages.link.continue')}
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
      <h1>{t(TITLES[props.purpose])}</h1>
      <p class="form-error" role="alert">
        {props.why}
      </p>
      <Switch>
        <Match when={props.purpose === 'setup'}>
          <p>
            {rich('pages.link.setupDone', { signIn: <A href="/">{t('pages.link.signInLower')}</A> })}
          </p>
          <pre>
            <code>{newAdminCommands(t('pages.link.yourName'))[0]}</code>
          </pre>
          <p>{t('pages.link.orBinary')}</p>
          <pre>
            <code>{newAdminCommands(t('pages.link.yourName'))[1]}</code>
          </pre>
          <p class="muted">{t('pages.link.printsLink')}</p>
        </Match>
        <Match when={true}>
          <p>
            {rich('pages.link.askAdmin', {
              button: <em>{props.purpose === 'invite' ? t('pages.link.newInvite') : t('pages.link.newReset')}</em>,
              signIn: <A href="/">{t('pages.link.signIn')}</A>,
            })}
          </p>
        </Match>
      </Switch>
    </section>
  )
}

function explain(error: ApiError): string {
  if (error.status === 404 || error.status === 410 || error.code.includes('token')) return t('pages.link.expired')
  return error.detail
}
