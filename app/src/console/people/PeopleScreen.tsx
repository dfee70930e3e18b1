import { createResource, createSignal, For, Show } from 'solid-js'
import { me } from '../../session.ts'
import type { User } from '../../types.ts'
import { consoleApi, type OneTimeLink } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { createAction, ErrorLine, ShownOnce, when } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

type Role = User['role']

/** What taking someone's access away is called, by their status: an invite is revoked, an active person disabled. */
const removal = (user: User) => (user.status === 'invited' ? t('people.revokeInvite') : t('people.removeAccess'))

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
      <h1>{t('people.title')}</h1>
      <p class="muted">{t('people.intro')}</p>
      <form class="inline-form card" onSubmit={invite}>
        <label>
          {t('people.email')}
          <input name="invite_email" type="email" value={email()} onInput={(e) => setEmail(e.currentTarget.value)} required maxLength={254} placeholder={t('people.emailPlaceholder')} />
        </label>
        <label>
          {t('people.name')}
          <input name="invite_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} required maxLength={100} placeholder={t('people.namePlaceholder')} />
        </label>
        <label>
          {t('people.role')}
          <select name="invite_role" value={role()} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="agent">{t('people.role.agent')}</option>
            <option value="admin">{t('people.role.admin')}</option>
          </select>
        </label>
        <button type="submit" class="primary">
          {t('people.invite')}
        </button>
      </form>
      <ErrorLine error={error()} />
      <Show when={link()}>
        {(made) => (
          <section class="card" aria-live="polite">
            <h2>
              {made().link.purpose === 'reset' ? t('people.resetLinkFor', { name: made().who }) : t('people.inviteLinkFor', { name: made().who })}
            </h2>
            <ShownOnce value={made().link.url} mark="invite-link" onDone={() => setLink(null)}>
              <p class="muted">{t('people.linkOnce', { time: when(made().link.expires_at) })}</p>
            </ShownOnce>
          </section>
        )}
      </Show>
      <section class="card">
        <Show when={people()} fallback={<p class="loading">{t('console.loading')}</p>}>
          <table class="table people">
            <thead>
              <tr>
                <th>{t('people.name')}</th>
                <th class="wide">{t('people.email')}</th>
                <th>{t('people.role')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              <For each={people()?.items}>
                {(user) => (
                  <tr data-user={user.email} data-status={user.status} classList={{ 'muted-row': user.status === 'disabled' }}>
                    <td>
                      {user.display_name}
                      <Show when={user.id === me()?.user.id}>{t('people.you')}</Show>
                      <span class={`person-status status-${user.status}`}>{t(`people.status.${user.status}`)}</span>
                    </td>
                    <td class="wide">{user.email}</td>
                    <td>
                      <select name="role" aria-label={t('people.roleOf', { name: user.display_name })} value={user.role} disabled={user.status === 'disabled'} onChange={(e) => void changeRole(user, e.currentTarget.value as Role)}>
                        <option value="agent">{t('people.role.agent')}</option>
                        <option value="admin">{t('people.role.admin')}</option>
                      </select>
                    </td>
                    <td>
                      <div class="actions">
                        <Show
                          when={user.status !== 'disabled'}
                          fallback={
                            <button type="button" onClick={() => void setDisabled(user, false)}>
                              {t('people.giveBack')}
                            </button>
                          }
                        >
                          <button type="button" onClick={() => void newLink(user)}>
                            {user.status === 'invited' ? t('people.newInvite') : t('people.newReset')}
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
      <ConfirmFor item={removing()} title={(user) => (user.status === 'invited' ? t('people.revokeInviteOf', { name: user.display_name }) : t('people.removeAccessOf', { name: user.display_name }))} confirm={removing() ? removal(removing() as User) : t('people.removeAccess')} onClose={() => setRemoving(null)} onConfirm={(user) => void setDisabled(user, true)}>
        {(user) =>
          user.status === 'invited' ? (
            <p>{t('people.inviteStops')}</p>
          ) : (
            <p>
              {t('people.signedOut', { name: user.display_name })}
            </p>
          )
        }
      </ConfirmFor>
    </>
  )
}
