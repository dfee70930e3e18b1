import { useNavigate, useSearchParams } from '@solidjs/router'
import { createEffect, createSignal } from 'solid-js'
import { ApiError } from '../api.ts'
import { ErrorLine } from '../ErrorLine.tsx'
import { me, signIn } from '../session.ts'
import { safeNext } from './next-path.ts'
import { t } from '../i18n/language.ts'

export function SignInPage() {
  const [params] = useSearchParams<{ next?: string }>()
  const navigate = useNavigate()
  const [error, setError] = createSignal('')
  const [busy, setBusy] = createSignal(false)
  createEffect(() => {
    if (me()) navigate(safeNext(params.next), { replace: true })
  })
  const submit = async (event: SubmitEvent) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget as HTMLFormElement)
    setBusy(true)
    setError('')
    try {
      await signIn(String(form.get('email') ?? ''), String(form.get('password') ?? ''))
    } catch (failure) {
      setError(
        failure instanceof ApiError && failure.status === 401
          ? t('pages.signIn.mismatch')
          : failure instanceof Error
            ? failure.message
            : t('pages.signIn.failed'),
      )
    } finally {
      setBusy(false)
    }
  }
  return (
    <main class="auth-page">
      <form class="auth-card" onSubmit={submit}>
        <h1>{t('pages.signIn.title')}</h1>
        <label>
          {t('pages.signIn.email')}
          <input name="email" type="email" autocomplete="username" required autofocus />
        </label>
        <label>
          {t('pages.signIn.password')}
          <input name="password" type="password" autocomplete="current-password" required />
        </label>
        <ErrorLine error={error()} />
        <button type="submit" class="primary" disabled={busy()}>
          {busy() ? t('pages.signIn.busy') : t('pages.signIn.submit')}
        </button>
      </form>
    </main>
  )
}
