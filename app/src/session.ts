import { createSignal } from 'solid-js'
import { api, ApiError, whenSignedOut } from './api.ts'
import { applyLanguage } from './i18n/language.ts'
import type { Me } from './types.ts'

/**
 * Who is signed in: undefined while the first /auth/me is on its way, null when nobody is
 * (the shell then shows sign-in). A 401 from any call signs the page out at once.
 */
const [me, setMe] = createSignal<Me | null | undefined>(undefined)
export { me }

whenSignedOut(() => setMe(null))

/** Signed in: the person's language is loaded first, so the screen they see is drawn in it once. */
async function signedIn(who: Me): Promise<void> {
  await applyLanguage(who.user.locale).catch(() => {})
  setMe(who)
}

export async function loadMe(): Promise<void> {
  try {
    await signedIn(await api<Me>('GET', '/auth/me'))
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) setMe(null)
    else throw error
  }
}

export async function signIn(email: string, password: string): Promise<void> {
  await signedIn(await api<Me>('POST', '/auth/sign-in', { email, password }))
}

export async function acceptLink(body: { token: string; password: string; email?: string; display_name?: string }): Promise<void> {
  await signedIn(await api<Me>('POST', '/auth/accept-invite', body))
}

/** The person's choice of language (null: their browser's), kept on their user and shown at once. */
export async function saveLanguage(locale: string | null): Promise<void> {
  const who = await api<Me>('PATCH', '/auth/me', { locale })
  await applyLanguage(who.user.locale)
  setMe(who)
}

export async function signOut(): Promise<void> {
  try {
    await api('POST', '/auth/sign-out')
  } finally {
    setMe(null)
  }
}

/** What a one-time link is for, asked before its page shows a form (a used link answers ApiError invalid_token). */
export async function peekLink(token: string): Promise<{ purpose: 'setup' | 'invite' | 'reset'; email: string | null; expires_at: string }> {
  return await api('POST', '/auth/link', { token })
}
