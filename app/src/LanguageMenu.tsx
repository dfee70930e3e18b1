import { createSignal, For, Show } from 'solid-js'
import { APP_LOCALES } from '../../server/people/app-locales.ts'
import { AUTONYMS } from './i18n/autonyms.ts'
import { applyLanguage, browserLanguages, chooseLanguage, language, t } from './i18n/language.ts'
import { me, saveLanguage } from './session.ts'

/**
 * The person's language for the app, in the top bar of the desk and the console: their
 * browser's (the default) or one the app speaks. Saved on their user (PATCH /auth/me), so it
 * follows them to any browser; the screen changes at once, without a reload. On a phone's
 * narrow top bar it shows as a globe and the language's tag; the select itself lies over
 * them (transparent), so a tap opens the phone's own picker and it keeps its name for a
 * screen reader.
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
    <span class="language-picker">
    <span class="language-face" aria-hidden="true">
      <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" stroke-width="1.4">
        <circle cx="8" cy="8" r="6.5" />
        <path d="M1.5 8h13M8 1.5c2 2 2.8 4.2 2.8 6.5S10 12.5 8 14.5M8 1.5C6 3.5 5.2 5.7 5.2 8S6 12.5 8 14.5" />
      </svg>
      {language().toUpperCase()}
    </span>
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
    </span>
    <Show when={error()}>
      <span class="form-error" role="alert">
        {error()}
      </span>
    </Show>
    </>
  )
}
