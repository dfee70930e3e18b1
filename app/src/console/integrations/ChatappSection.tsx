import { createResource, createSignal, For, Show } from 'solid-js'
import { type ChatappHandshake, type ChatappIntegration, consoleApi } from '../console-api.ts'
import { CopyButton, createAction, ErrorLine, when } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

/**
 * The messaging-app channel: its tokens (write-only, shown masked), the callback URL to paste
 * into the provider's webhook settings, whether the provider's verify handshake worked, and
 * the log of what was sent to the provider.
 */
export function ChatappSection(props: { botId: string }) {
  const [integration, { refetch, mutate }] = createResource(() => props.botId, (id) => consoleApi.channelIfAny(id, 'chatapp', consoleApi.chatapp))
  const { error, act } = createAction()
  const create = (body: Record<string, unknown>) =>
    act(async () => {
      await consoleApi.createChatapp(props.botId, body)
      await refetch()
    })
  return (
    <section class="card chatapp">
      <h2>{t('chatapp.title')}</h2>
      <ErrorLine error={error()} />
      <Show when={integration() !== undefined} fallback={<p class="loading">{t('int.loading')}</p>}>
        <Show when={integration()} fallback={<TokensForm submit={t('chatapp.add')} onSubmit={create} />}>
          {(chatapp) => <ChatappChannel botId={props.botId} chatapp={chatapp()} act={act} onChanged={mutate} />}
        </Show>
      </Show>
    </section>
  )
}

function ChatappChannel(props: { botId: string; chatapp: ChatappIntegration; act: (work: () => Promise<unknown>) => Promise<boolean>; onChanged: (record: ChatappIntegration) => void }) {
  const [handshake, { refetch: reloadHandshake }] = createResource(() => props.botId, consoleApi.chatappHandshake)
  const [deliveries, { refetch: reloadDeliveries }] = createResource(() => props.botId, consoleApi.chatappDeliveries)
  const [editing, setEditing] = createSignal(false)
  const refresh = () => props.act(() => Promise.all([reloadHandshake(), reloadDeliveries()]))
  const change = (body: Record<string, unknown>) =>
    props.act(async () => {
      props.onChanged(await consoleApi.updateChatapp(props.botId, body))
      setEditing(false)
    })
  const config = () => props.chatapp.config
  return (
    <>
      <dl class="facts">
        <dt>{t('chatapp.number')}</dt>
        <dd data-phone-number-id>{config().phone_number_id}</dd>
        <dt>{t('chatapp.access')}</dt>
        <dd>
          <code data-masked="access_token">{config().access_token}</code>
        </dd>
        <dt>{t('chatapp.verify')}</dt>
        <dd>
          <code data-masked="verify_token">{config().verify_token}</code>
        </dd>
        <dt>{t('chatapp.secret')}</dt>
        <dd>
          <code data-masked="app_secret">{config().app_secret ?? t('chatapp.noSecret')}</code>
        </dd>
        <dt>{t('chatapp.channel')}</dt>
        <dd>{props.chatapp.is_active ? t('chatapp.on') : t('chatapp.off')}</dd>
      </dl>
      <p>{t('chatapp.paste')}</p>
      <div class="actions">
        <code class="snippet" data-callback-url>
          {config().callback_url}
        </code>
        <CopyButton text={() => config().callback_url} label={t('chatapp.copyCallback')} />
      </div>
      <HandshakeLine handshake={handshake()} />
      <div class="actions">
        <button type="button" onClick={() => setEditing(!editing())}>
          {editing() ? t('int.cancel') : t('chatapp.change')}
        </button>
        <button type="button" onClick={() => void change({ is_active: !props.chatapp.is_active })}>
          {props.chatapp.is_active ? t('int.switchOff') : t('int.switchOn')}
        </button>
        <Show when={config().app_secret}>
          <button type="button" onClick={() => void change({ app_secret: null })}>
            {t('chatapp.removeSecret')}
          </button>
        </Show>
        <button type="button" onClick={() => void refresh()}>
          {t('int.refresh')}
        </button>
      </div>
      <Show when={editing()}>
        <TokensForm submit={t('chatapp.saveTokens')} editing onSubmit={change} />
      </Show>
      <h2>{t('int.deliveries')}</h2>
      <table class="table deliveries chatapp-deliveries">
        <thead>
          <tr>
            <th>{t('int.status')}</th>
            <th>{t('chatapp.type')}</th>
            <th>{t('int.attempts')}</th>
            <th>{t('chatapp.provider')}</th>
            <th class="wide">{t('int.created')}</th>
          </tr>
        </thead>
        <tbody>
          <For each={deliveries()?.items ?? []} fallback={<tr><td colSpan={5} class="muted">{t('chatapp.nothing')}</td></tr>}>
            {(delivery) => (
              <tr data-chatapp-delivery={delivery.id} data-status={delivery.status}>
                <td class={`status-${delivery.status === 'accepted' ? 'delivered' : delivery.status}`}>{delivery.status}</td>
                <td>{delivery.type}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.last_error ?? delivery.provider_status ?? (delivery.provider_message_id ? t('chatapp.accepted') : '—')}</td>
                <td class="wide">{when(delivery.created_at)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <p class="muted">{t('chatapp.kept')}</p>
    </>
  )
}

/** A refusal the provider's latest success does not answer (a wrong token sent after it, or no success yet). */
const refusedLater = (h: ChatappHandshake) => h.refused_at !== null && (h.verified_at === null || h.refused_at > h.verified_at)

/** Whether the provider's webhook verification worked: the latest success, and a refusal after it. */
function HandshakeLine(props: { handshake: ChatappHandshake | undefined }) {
  return (
    <Show when={props.handshake}>
      {(h) => (
        <div class="handshake" data-handshake={h().verified_at ? 'verified' : h().refused_at ? 'refused' : 'never'}>
          <Show when={h().verified_at} fallback={<p class="muted">{t('chatapp.notVerified')}</p>}>
            <p class="status-delivered">{t('chatapp.verified', { time: when(h().verified_at) })}</p>
          </Show>
          <Show when={refusedLater(h())}>
            <p class="status-failed" data-handshake-refused>
              {t('chatapp.refused', { time: when(h().refused_at), reason: h().refusal ?? '' })}
            </p>
          </Show>
        </div>
      )}
    </Show>
  )
}

/** The tokens, to create the channel or replace some of them: empty fields keep what is stored. */
function TokensForm(props: { submit: string; editing?: boolean; onSubmit: (body: Record<string, unknown>) => Promise<boolean> }) {
  const [phone, setPhone] = createSignal('')
  const [access, setAccess] = createSignal('')
  const [verify, setVerify] = createSignal('')
  const [secret, setSecret] = createSignal('')
  const send = (event: SubmitEvent) => {
    event.preventDefault()
    const body: Record<string, unknown> = {}
    const put = (field: string, value: string) => {
      if (value.trim() !== '') body[field] = value.trim()
    }
    put('phone_number_id', phone())
    put('access_token', access())
    put('verify_token', verify())
    put('app_secret', secret())
    void props.onSubmit(body).then((saved) => {
      if (!saved) return
      setAccess('')
      setVerify('')
      setSecret('')
    })
  }
  return (
    <form class="grid-stack" onSubmit={send}>
      <label class="field">
        {t('chatapp.number')} <span class="limit">{props.editing ? t('chatapp.numberKeep') : t('chatapp.numberHint')}</span>
        <input name="phone_number_id" value={phone()} onInput={(e) => setPhone(e.currentTarget.value)} required={!props.editing} pattern="[A-Za-z0-9._\-]{1,64}" />
      </label>
      <label class="field">
        {t('chatapp.access')} <span class="limit">{props.editing ? t('chatapp.writeOnlyKeep') : t('chatapp.writeOnly')}</span>
        <input name="access_token" type="password" autocomplete="off" value={access()} onInput={(e) => setAccess(e.currentTarget.value)} required={!props.editing} />
      </label>
      <label class="field">
        {t('chatapp.verify')} <span class="limit">{props.editing ? t('chatapp.verifyKeep') : t('chatapp.verifyHint')}</span>
        <input name="verify_token" type="password" autocomplete="off" value={verify()} onInput={(e) => setVerify(e.currentTarget.value)} required={!props.editing} />
      </label>
      <label class="field">
        {t('chatapp.secret')} <span class="limit">{props.editing ? t('chatapp.secretKeep') : t('chatapp.secretHint')}</span>
        <input name="app_secret" type="password" autocomplete="off" value={secret()} onInput={(e) => setSecret(e.currentTarget.value)} />
      </label>
      <div class="actions">
        <button type="submit" class="primary">
          {props.submit}
        </button>
      </div>
    </form>
  )
}
