import { createResource, createSignal, For, Show } from 'solid-js'
import { type ApiKey, consoleApi } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { createAction, ErrorLine, ShownOnce, when } from '../parts.tsx'

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
      <h1>API keys</h1>
      <p class="muted">A key opens the whole developer API of this workspace. Parley keeps only a hash: a key is shown once, when it is made.</p>
      <form class="inline-form card" onSubmit={create}>
        <label>
          New key
          <input name="key-name" value={name()} onInput={(e) => setName(e.currentTarget.value)} maxLength={100} required placeholder="Back office" />
        </label>
        <button type="submit" class="primary" disabled={!name().trim()}>
          Create key
        </button>
      </form>
      <ErrorLine error={error()} />
      <Show when={made()}>
        {(key) => (
          <section class="card" aria-live="polite">
            <h2>Key “{key().name}”: copy it now</h2>
            <ShownOnce value={key().key} mark="new-key" onDone={() => setMade(null)}>
              <p class="muted">It will not be shown again.</p>
            </ShownOnce>
          </section>
        )}
      </Show>
      <section class="card">
        <Show when={keys()} fallback={<p class="loading">Loading…</p>}>
          <table class="table keys">
            <thead>
              <tr>
                <th>Name</th>
                <th>Key</th>
                <th class="wide">Created</th>
                <th>Last used</th>
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
                    <td>{key.last_used_at ? when(key.last_used_at) : 'never'}</td>
                    <td>
                      <Show when={key.revoked_at === null} fallback={<span data-revoked>revoked {when(key.revoked_at)}</span>}>
                        <button type="button" onClick={() => setRevoking(key)}>
                          Revoke
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
      <ConfirmFor item={revoking()} title={(key) => `Revoke ${key.name}?`} confirm="Revoke" onClose={() => setRevoking(null)} onConfirm={(key) => void revoke(key)}>
        {(key) => (
          <p>
            Every request with <code>{key.prefix}…</code> is refused from now on (401). Whatever uses it stops working; this cannot be undone.
          </p>
        )}
      </ConfirmFor>
    </>
  )
}
