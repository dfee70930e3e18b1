import { createResource, createSignal, For, Show } from 'solid-js'
import { me } from '../../session.ts'
import type { User } from '../../types.ts'
import { consoleApi, type OneTimeLink } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { createAction, ErrorLine, ShownOnce, when } from '../parts.tsx'

type Role = User['role']

/** What taking someone's access away is called, by their status: an invite is revoked, an active person disabled. */
const removal = (user: User) => (user.status === 'invited' ? 'Revoke the invite' : 'Remove access')

/**
 * The people of the workspace (the desk's /users routes): invite someone with a link shown
 * once, make a new link, change a role, and take access away (disabling: people stay on
 * record, since their replies and notes name them).
 */
export default function PeopleScreen() {
  const [people, { refetch }] = createResource(() => consoleApi.users())
  const [email, setEmail] = createSignal('')
  const [name, setName] = createSignal('')
  const [role, setRole] = createSignal<Role>('agent')
  const [link, setLink] = createSignal<{ who: string; link: OneTimeLink } | null>(null)
  const [removing, setRemoving] = createSignal<User | null>(null)
  const { error, act: attempt } = createAction()
  /** Runs a change, then reloads the list whether or not it worked. */
  const act = async (work: () => Promise<unknown>) => {
    await attempt(work)
    await refetch()
  }
  const invite = (event: SubmitEvent) => {
    event.preventDefault()
    void act(async () => {
      const made = await consoleApi.invite({ email: email().trim(), display_name: name().trim(), role: role() })
      setLink({ who: made.user.display_name, link: made.invite })
      setEmail('')
      setName('')
    })
  }
  const newLink = (user: User) =>
    act(async () => {
      setLink({ who: user.display_name, link: await consoleApi.userLink(user.id) })
    })
  const changeRole = (user: User, next: Role) => act(() => consoleApi.updateUser(user.id, { role: next }))
  const setDisabled = (user: User, disabled: boolean) => act(() => consoleApi.updateUser(user.id, { disabled }))

  return (
    <>
      <h1>People</h1>
      <p class="muted">Admins see the console and the desk; agents only the desk. No mail server is involved: hand the invite link over however you like.</p>
      <form class="inline-form card" onSubmit={invite}>
        <label>
          E-mail
          <input name="invite_email" type="email" value={email()} onInput={(e) => setEmail(e.currentTarget.value)} required maxLength={254} placeholder="sam@acme.io" />
        </label>
        <label>
          Name
          <input name="invite_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} placeholder="Sam Lee" />
        </label>
        <label>
          Role
          <select name="invite_role" value={role()} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="agent">agent</option>
            <option value="admin">admin</option>
          </select>
        </label>
        <button type="submit" class="primary">
          Invite
        </button>
      </form>
      <ErrorLine error={error()} />
      <Show when={link()}>
        {(made) => (
          <section class="card" aria-live="polite">
            <h2>
              {made().link.purpose === 'reset' ? 'Password reset link' : 'Invite link'} for {made().who}: copy it now
            </h2>
            <ShownOnce value={made().link.url} mark="invite-link" onDone={() => setLink(null)}>
              <p class="muted">It works once, until {when(made().link.expires_at)}, and will not be shown again. A new link replaces it.</p>
            </ShownOnce>
          </section>
        )}
      </Show>
      <section class="card">
        <Show when={people()} fallback={<p class="loading">Loading…</p>}>
          <table class="table people">
            <thead>
              <tr>
                <th>Name</th>
                <th class="wide">E-mail</th>
                <th>Role</th>
                <th />
              </tr>
            </thead>
            <tbody>
              <For each={people()?.items}>
                {(user) => (
                  <tr data-user={user.email} data-status={user.status} classList={{ 'muted-row': user.status === 'disabled' }}>
                    <td>
                      {user.display_name}
                      <Show when={user.id === me()?.user.id}> (you)</Show>
                      <span class={`person-status status-${user.status}`}>{user.status}</span>
                    </td>
                    <td class="wide">{user.email}</td>
                    <td>
                      <select name="role" aria-label={`Role of ${user.display_name}`} value={user.role} disabled={user.status === 'disabled'} onChange={(e) => void changeRole(user, e.currentTarget.value as Role)}>
                        <option value="agent">agent</option>
                        <option value="admin">admin</option>
                      </select>
                    </td>
                    <td>
                      <div class="actions">
                        <Show
                          when={user.status !== 'disabled'}
                          fallback={
                            <button type="button" onClick={() => void setDisabled(user, false)}>
                              Give access back
                            </button>
                          }
                        >
                          <button type="button" onClick={() => void newLink(user)}>
                            {user.status === 'invited' ? 'New invite link' : 'Password reset link'}
                          </button>
                          <Show when={user.id !== me()?.user.id}>
                            <button type="button" onClick={() => setRemoving(user)}>
                              {removal(user)}
                            </button>
                          </Show>
                        </Show>
                      </div>
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </section>
      <ConfirmFor item={removing()} title={(user) => `${removal(user)} of ${user.display_name}?`} confirm={removing() ? removal(removing() as User) : 'Remove'} onClose={() => setRemoving(null)} onConfirm={(user) => void setDisabled(user, true)}>
        {(user) =>
          user.status === 'invited' ? (
            <p>Their invite link stops working at once. You can give access back and make a new link later.</p>
          ) : (
            <p>
              {user.display_name} is signed out everywhere at once and cannot sign in. Their replies and notes stay, under their name. You can give access back later.
            </p>
          )
        }
      </ConfirmFor>
    </>
  )
}
