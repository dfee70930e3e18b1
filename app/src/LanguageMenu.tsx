import { createSignal, For, Show } from 'solid-js'
import { APP_LOCALES } from '../../server/people/app-locales.ts'
import { AUTONYMS } from './i18n/autonyms.ts'
import { applyLanguage, browserLanguages, chooseLanguage, t } from './i18n/language.ts'
import { me, saveLanguage } from './session.ts'

/**
 * The person's language for the app, in the top bar of the desk and the console: their
 * browser's (the default) or one the app speaks. Saved on their user (PATCH /auth/me), so it
 * follows them to any browser; the screen changes at once, without a reload.
 */
export function LanguageMenu() {
  const [error, setError] = createSignal('')
  const browsers = () => AUTONYMS[chooseLanguage(null, browserLanguages()).tag]
  const change = async (value: string) => {
    setError('')
    try {
      await saveLanguage(value === '' ? null : value)
    } catch (failure) {
      setError(t('shell.languageFailed', { reason: failure instanceof Error ? failure.message : String(failure) }))
      await applyLanguage(me()?.user.locale ?? null)
    }
  }
  return (
    <>
    <select class="language-menu" data-action="language" aria-label={t('shell.language')} title={t('shell.language')} value={me()?.user.locale ?? ''} onChange={(event) => void change(event.currentTarget.value)}>
      <option value="">{t('shell.languageAuto', { name: browsers() })}</option>
      <For each={APP_LOCALES}>
        {(tag) => (
          <option value={tag} lang={tag}>
            {AUTONYMS[tag]}
          </option>
        )}
      </For>
    </select>
    <Show when={error()}>
      <span class="form-error" role="alert">
        {error()}
      </span>
    </Show>
    </>
  )
}
