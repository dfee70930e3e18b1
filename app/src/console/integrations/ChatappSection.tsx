import { createResource, createSignal, For, Show } from 'solid-js'
import { type ChatappHandshake, type ChatappIntegration, consoleApi } from '../console-api.ts'
import { CopyButton, createAction, ErrorLine, when } from '../parts.tsx'

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
      <h2>Messaging app channel</h2>
      <ErrorLine error={error()} />
      <Show when={integration() !== undefined} fallback={<p class="loading">Loading…</p>}>
        <Show when={integration()} fallback={<TokensForm submit="Add the messaging app channel" onSubmit={create} />}>
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
        <dt>Business number id</dt>
        <dd data-phone-number-id>{config().phone_number_id}</dd>
        <dt>Access token</dt>
        <dd>
          <code data-masked="access_token">{config().access_token}</code>
        </dd>
        <dt>Verify token</dt>
        <dd>
          <code data-masked="verify_token">{config().verify_token}</code>
        </dd>
        <dt>App secret</dt>
        <dd>
          <code data-masked="app_secret">{config().app_secret ?? 'none: payloads are not signature-checked'}</code>
        </dd>
        <dt>Channel</dt>
        <dd>{props.chatapp.is_active ? 'on' : 'switched off: the provider’s messages are refused'}</dd>
      </dl>
      <p>Paste this callback URL, with your verify token, into the provider’s webhook settings:</p>
      <div class="actions">
        <code class="snippet" data-callback-url>
          {config().callback_url}
        </code>
        <CopyButton text={() => config().callback_url} label="Copy the callback URL" />
      </div>
      <HandshakeLine handshake={handshake()} />
      <div class="actions">
        <button type="button" onClick={() => setEditing(!editing())}>
          {editing() ? 'Cancel' : 'Change the tokens'}
        </button>
        <button type="button" onClick={() => void change({ is_active: !props.chatapp.is_active })}>
          {props.chatapp.is_active ? 'Switch off' : 'Switch on'}
        </button>
        <Show when={config().app_secret}>
          <button type="button" onClick={() => void change({ app_secret: null })}>
            Remove the app secret
          </button>
        </Show>
        <button type="button" onClick={() => void refresh()}>
          Refresh
        </button>
      </div>
      <Show when={editing()}>
        <TokensForm submit="Save the tokens" editing onSubmit={change} />
      </Show>
      <h2>Deliveries</h2>
      <table class="table deliveries chatapp-deliveries">
        <thead>
          <tr>
            <th>Status</th>
            <th>Type</th>
            <th>Attempts</th>
            <th>Provider</th>
            <th class="wide">Created</th>
          </tr>
        </thead>
        <tbody>
          <For each={deliveries()?.items ?? []} fallback={<tr><td colSpan={5} class="muted">Nothing sent yet.</td></tr>}>
            {(delivery) => (
              <tr data-chatapp-delivery={delivery.id} data-status={delivery.status}>
                <td class={`status-${delivery.status === 'accepted' ? 'delivered' : delivery.status}`}>{delivery.status}</td>
                <td>{delivery.type}</td>
                <td>{delivery.attempts}</td>
                <td>{delivery.last_error ?? delivery.provider_status ?? (delivery.provider_message_id ? 'accepted' : '—')}</td>
                <td class="wide">{when(delivery.created_at)}</td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
      <p class="muted">The provider’s messages Parley sent, newest first, kept 14 days. Failed ones are not sent again: the provider refused them (its error is shown).</p>
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
          <Show when={h().verified_at} fallback={<p class="muted">The provider has not verified the callback URL yet: save its webhook settings.</p>}>
            <p class="status-delivered">The provider verified the callback URL {when(h().verified_at)}.</p>
          </Show>
          <Show when={refusedLater(h())}>
            <p class="status-failed" data-handshake-refused>
              A verification was refused {when(h().refused_at)}: {h().refusal}
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
  const keep = props.editing ? '; empty keeps the current one' : ''
  return (
    <form class="grid-stack" onSubmit={send}>
      <label class="field">
        Business number id <span class="limit">the phone_number_id at the provider{props.editing ? '; empty keeps it' : ''}</span>
        <input name="phone_number_id" value={phone()} onInput={(e) => setPhone(e.currentTarget.value)} required={!props.editing} pattern="[A-Za-z0-9._\-]{1,64}" />
      </label>
      <label class="field">
        Access token <span class="limit">write-only{keep}</span>
        <input name="access_token" type="password" autocomplete="off" value={access()} onInput={(e) => setAccess(e.currentTarget.value)} required={!props.editing} />
      </label>
      <label class="field">
        Verify token <span class="limit">you choose it; the same in the provider’s webhook settings{keep}</span>
        <input name="verify_token" type="password" autocomplete="off" value={verify()} onInput={(e) => setVerify(e.currentTarget.value)} required={!props.editing} />
      </label>
      <label class="field">
        App secret <span class="limit">optional: checks the signature of the provider’s payloads{keep}</span>
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
