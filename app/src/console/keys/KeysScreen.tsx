import { createResource, createSignal, For, Show } from 'solid-js'
import { type ApiKey, consoleApi } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { createAction, ErrorLine, ShownOnce, when } from '../parts.tsx'
import { rich, t } from '../../i18n/language.ts'

/** API keys: made and shown once, revoked, with when each was last used. */
export default function KeysScreen() {
  const [keys, { refetch }] = createResource(() => consoleApi.keys())
  const [name, setName] = createSignal('')
  const [made, setMade] = createSignal<{ name: string; key: string } | null>(null)
  const [revoking, setRevoking] = createSignal<ApiKey | null>(null)
  const { error, act } = createAction()

  const create = (event: SubmitEvent) => {
    event.preventDefault()
    void act(async () => {
      const created = await consoleApi.createKey(name().trim())
      setMade({ name: created.name, key: created.key })
      setName('')
      await refetch()
    })
  }
  const revoke = (key: ApiKey) =>
    act(async () => {
      await consoleApi.revokeKey(key.prefix)
      await refetch()
    })

  return (
    <>
      <h1>{t('keys.title')}</h1>
      <p class="muted">{t('keys.intro')}</p>
      <form class="inline-form card" onSubmit={create}>
        <label>
          {t('keys.new')}
          <input name="key-name" value={name()} onInput={(e) => setName(e.currentTarget.value)} maxLength={100} required placeholder={t('keys.namePlaceholder')} />
        </label>
        <button type="submit" class="primary" disabled={!name().trim()}>
          {t('keys.create')}
        </button>
      </form>
      <ErrorLine error={error()} />
      <Show when={made()}>
        {(key) => (
          <section class="card" aria-live="polite">
            <h2>{t('keys.copyNow', { name: key().name })}</h2>
            <ShownOnce value={key().key} mark="new-key" onDone={() => setMade(null)}>
              <p class="muted">{t('keys.notAgain')}</p>
            </ShownOnce>
          </section>
        )}
      </Show>
      <section class="card">
        <Show when={keys()} fallback={<p class="loading">{t('console.loading')}</p>}>
          <table class="table keys">
            <thead>
              <tr>
                <th>{t('keys.name')}</th>
                <th>{t('keys.key')}</th>
                <th class="wide">{t('keys.created')}</th>
                <th>{t('keys.lastUsed')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              <For each={keys()?.items}>
                {(key) => (
                  <tr data-prefix={key.prefix} classList={{ 'muted-row': key.revoked_at !== null }}>
                    <td>{key.name}</td>
                    <td>
                      <code>{key.prefix}…</code>
                    </td>
                    <td class="wide">{when(key.created_at)}</td>
                    <td>{key.last_used_at ? when(key.last_used_at) : t('keys.never')}</td>
                    <td>
                      <Show when={key.revoked_at === null} fallback={<span data-revoked>{t('keys.revokedAt', { time: when(key.revoked_at) })}</span>}>
                        <button type="button" onClick={() => setRevoking(key)}>
                          {t('keys.revoke')}
                        </button>
                      </Show>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </section>
      <ConfirmFor item={revoking()} title={(key) => t('keys.revokeTitle', { name: key.name })} confirm={t('keys.revoke')} onClose={() => setRevoking(null)} onConfirm={(key) => void revoke(key)}>
        {(key) => (
          <p>
            {rich('keys.revokeBody', { prefix: <code>{key.prefix}…</code> })}
          </p>
        )}
      </ConfirmFor>
    </>
  )
}
