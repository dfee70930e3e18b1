import { A, useNavigate, useParams } from '@solidjs/router'
import { createResource, createSignal, For, Show } from 'solid-js'
import { consoleApi, type FlowItem } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { BotTabs, createAction, ErrorLine, when } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

/** A chatbot's flows: open one in the editor, make one, delete one. */
export default function FlowsScreen() {
  const params = useParams<{ botId: string }>()
  const [bot] = createResource(() => params.botId, consoleApi.chatbot)
  const [flows, { refetch }] = createResource(() => params.botId, consoleApi.flows)
  const [name, setName] = createSignal('')
  const [type, setType] = createSignal<'conversation' | 'meta'>('conversation')
  const navigate = useNavigate()
  const [deleting, setDeleting] = createSignal<FlowItem | null>(null)
  const { error, act } = createAction()
  const run = (work: () => Promise<unknown>) =>
    act(async () => {
      await work()
      await refetch()
    })
  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <h1>{t('flows.title')}</h1>
      <form
        class="inline-form card"
        onSubmit={(event) => {
          event.preventDefault()
          void run(async () => {
            // A new conversation flow starts empty: the builder offers its templates and palette.
            const made = await consoleApi.createFlow(params.botId, { name: name().trim(), type: type(), flow: type() === 'conversation' ? {} : { version: '6.3', screens: [] } })
            setName('')
            navigate(`/console/bots/${params.botId}/flows/${made.id}`)
          })
        }}
      >
        <label>
          {t('flows.new')}
          <input name="flow_name" value={name()} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} required placeholder={t('flows.namePlaceholder')} />
        </label>
        <label>
          {t('flows.type')}
          <select name="flow_type" value={type()} onChange={(e) => setType(e.currentTarget.value as 'conversation' | 'meta')}>
            <option value="conversation">{t('flows.type.conversation')}</option>
            <option value="meta">{t('flows.type.meta')}</option>
          </select>
        </label>
        <button type="submit" class="primary" disabled={!name().trim()}>
          {t('flows.create')}
        </button>
      </form>
      <ErrorLine error={error()} />
      <section class="card">
        <table class="table flows">
          <thead>
            <tr>
              <th>{t('flows.name')}</th>
              <th>{t('flows.type')}</th>
              <th>{t('flows.status')}</th>
              <th class="wide">{t('flows.created')}</th>
              <th />
            </tr>
          </thead>
          <tbody>
            <For each={flows()?.items ?? []} fallback={<tr><td colSpan={5} class="muted">{t('flows.none')}</td></tr>}>
              {(flow) => (
                <tr data-flow={flow.id}>
                  <td>
                    <A href={`/console/bots/${params.botId}/flows/${flow.id}`}>{flow.name}</A>
                  </td>
                  <td>{flow.type}</td>
                  <td>{flow.status}</td>
                  <td class="wide">{when(flow.created_at)}</td>
                  <td>
                    <button type="button" onClick={() => setDeleting(flow)}>
                      {t('flows.delete')}
                    </button>
                  </td>
                </tr>
              )}
            </For>
          </tbody>
        </table>
      </section>
      <ConfirmFor
        item={deleting()}
        title={(flow) => t('flows.deleteTitle', { name: flow.name })}
        confirm={t('flows.deleteConfirm')}
        onClose={() => setDeleting(null)}
        onConfirm={(flow) => void run(() => consoleApi.deleteFlow(params.botId, flow.id))}
      >
        {() => <p>{t('flows.deleteBody')}</p>}
      </ConfirmFor>
    </>
  )
}
