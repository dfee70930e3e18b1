import { useParams } from '@solidjs/router'
import { createResource, createSignal, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { BotTabs, createAction, ErrorLine, ShownOnce, when } from '../parts.tsx'
import { ChatappSection } from './ChatappSection.tsx'
import { LlmSection } from './LlmSection.tsx'
import { McpSection } from './McpSection.tsx'
import { rich, t } from '../../i18n/language.ts'

/** The chatbot's other integrations: the rest-api and messaging-app channels, MCP tool servers, the LLM its agent states use. */
export default function IntegrationsScreen() {
  const params = useParams<{ botId: string }>()
  const [bot, { mutate: setBot }] = createResource(() => params.botId, consoleApi.chatbot)
  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <h1>{t('int.title')}</h1>
      <RestApiSection botId={params.botId} />
      <ChatappSection botId={params.botId} />
      <McpSection botId={params.botId} />
      <Show when={bot()}>{(loaded) => <LlmSection bot={loaded()} onSaved={setBot} />}</Show>
    </>
  )
}

function RestApiSection(props: { botId: string }) {
  const [integration, { refetch }] = createResource(() => props.botId, (id) => consoleApi.channelIfAny(id, 'rest-api', consoleApi.restApi))
  const [deliveries, { refetch: reloadDeliveries }] = createResource(
    () => (integration() ? props.botId : null),
    (id) => consoleApi.deliveries(id),
  )
  const [url, setUrl] = createSignal('')
  const [secret, setSecret] = createSignal('')
  const { error, act } = createAction()
  const create = (event: SubmitEvent) => {
    event.preventDefault()
    void act(async () => {
      const made = await consoleApi.createRestApi(props.botId, { name: 'REST API', webhook_url: url().trim() })
      setSecret(made.signing_secret)
      await refetch()
    })
  }
  const saveUrl = (event: SubmitEvent) => {
    event.preventDefault()
    void act(async () => {
      await consoleApi.updateRestApi(props.botId, { webhook_url: url().trim() })
      setUrl('')
      await refetch()
    })
  }
  const rotate = () =>
    act(async () => {
      const rotated = await consoleApi.updateRestApi(props.botId, { rotate_secret: true })
      setSecret(rotated.signing_secret ?? '')
      await refetch()
    })
  const redeliver = (id: string) =>
    act(async () => {
      await consoleApi.redeliver(props.botId, id)
      await reloadDeliveries()
    })

  return (
    <section class="card rest-api">
      <h2>{t('rest.title')}</h2>
      <ErrorLine error={error()} />
      <Show when={integration() !== undefined} fallback={<p class="loading">{t('int.loading')}</p>}>
        <Show
          when={integration()}
          fallback={
            <form class="inline-form" onSubmit={create}>
              <label>
                {t('rest.webhook')}
                <input name="webhook_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/parley-webhook" required />
              </label>
              <button type="submit" class="primary">
                {t('rest.add')}
              </button>
            </form>
          }
        >
          {(rest) => (
            <>
              <p>
                {rich('rest.posted', { url: <code data-webhook-url>{rest().config.webhook_url}</code>, secret: <code>{rest().config.signing_secret}</code> })}
              </p>
              <form class="inline-form" onSubmit={saveUrl}>
                <label>
                  {t('rest.newUrl')}
                  <input name="new_webhook_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} required />
                </label>
                <button type="submit">{t('rest.changeUrl')}</button>
                <button type="button" onClick={() => void rotate()}>
                  {t('rest.rotate')}
                </button>
              </form>
              <Show when={secret()}>
                <div>
                  <p>{t('rest.secretOnce')}</p>
                  <ShownOnce value={secret()} mark="signing-secret" onDone={() => setSecret('')} />
                </div>
              </Show>
              <div class="actions">
                <h2>{t('int.deliveries')}</h2>
                <button type="button" onClick={() => void reloadDeliveries()}>
                  {t('int.refresh')}
                </button>
              </div>
              <table class="table deliveries">
                <thead>
                  <tr>
                    <th>{t('int.status')}</th>
                    <th>{t('int.attempts')}</th>
                    <th>{t('rest.lastAnswer')}</th>
                    <th class="wide">{t('int.created')}</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  <For each={deliveries()?.items ?? []} fallback={<tr><td colSpan={5} class="muted">{t('rest.none')}</td></tr>}>
                    {(delivery) => (
                      <tr data-delivery={delivery.id} data-status={delivery.status}>
                        <td class={`status-${delivery.status}`}>{delivery.status}</td>
                        <td>{delivery.attempts}</td>
                        <td>{delivery.last_status_code ?? delivery.last_error ?? '—'}</td>
                        <td class="wide">{when(delivery.created_at)}</td>
                        <td>
                          <Show when={delivery.status === 'failed'}>
                            <button type="button" onClick={() => void redeliver(delivery.id)}>
                              {t('rest.redeliver')}
                            </button>
                          </Show>
                        </td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </>
          )}
        </Show>
      </Show>
    </section>
  )
}
