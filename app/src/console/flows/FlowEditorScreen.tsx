import { useParams } from '@solidjs/router'
import { createMemo, createResource, createSignal, For, lazy, onCleanup, onMount, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { BotTabs, createAction, ErrorLine, when } from '../parts.tsx'
import { placeOf } from './builder/model/issues.ts'
import type { Json } from './builder/model/json.ts'
import { draftState } from './draft-state.ts'
import type { BuilderApi } from './builder/FlowBuilder.tsx'
import type { JsonViewApi } from './JsonView.tsx'
import { TestChat } from './TestChat.tsx'
import { Versions } from './Versions.tsx'
import { t } from '../../i18n/language.ts'

// Each loads when first shown: the canvas (@xyflow/system) and the JSON view (CodeMirror).
const FlowBuilder = lazy(() => import('./builder/FlowBuilder.tsx'))
const JsonView = lazy(() => import('./JsonView.tsx'))

/**
 * A flow's editor: the definition as a canvas to build by clicking (conversation flows) and
 * as JSON text, the two in sync through one definition, saved as the working copy a moment
 * after each change and checked by the validate endpoint; a test chat with the draft,
 * publishing, and the published versions to compare and restore.
 */
export default function FlowEditorScreen() {
  const params = useParams<{ botId: string; flowId: string }>()
  // Another flow (back and forward between two) is a new editor, not this one with other data.
  return (
    <Show when={`${params.botId}/${params.flowId}`} keyed>
      <FlowEditor botId={params.botId} flowId={params.flowId} />
    </Show>
  )
}

function FlowEditor(params: { botId: string; flowId: string }) {
  const [bot] = createResource(() => params.botId, consoleApi.chatbot)
  const draft = draftState(params.botId, params.flowId)
  const [tab, setTab] = createSignal<'canvas' | 'json'>('canvas')
  const [jsonOpened, setJsonOpened] = createSignal(false)
  const [talk, setTalk] = createSignal<{ current: string | null; walked: ReadonlySet<string> }>({ current: null, walked: new Set() })
  const [notice, setNotice] = createSignal('')
  const { error, setError, act } = createAction()
  let jsonView: JsonViewApi | undefined
  let canvas: BuilderApi | undefined
  const isConversation = () => draft.flow()?.type !== 'meta'
  const showing = () => (isConversation() ? tab() : 'json')

  onMount(() => void draft.load().catch((failure) => setError(String(failure?.message ?? failure))))
  onCleanup(() => draft.dispose())

  const counts = createMemo(() => ({ errors: draft.issues().errors.length, warnings: draft.issues().warnings.length }))
  const blocked = () => {
    if (draft.state() === 'invalid json') return t('flows.notJson')
    if (counts().errors > 0) return t('flows.fixToPublish', { count: counts().errors })
    if (draft.state() !== 'saved') return t('flows.saving')
    return ''
  }

  const onJsonText = (parsed: { ok: true; value: unknown } | { ok: false }) => {
    if (parsed.ok) draft.change(parsed.value as Json, 'json')
    else draft.setState('invalid json')
  }
  // Made once, when the JSON tab is first opened, and kept (hidden) so that its text survives a switch of tab.
  const jsonElement = createMemo(() => (jsonOpened() ? <JsonView definition={draft.definition()} issues={draft.issues()} api={(api) => (jsonView = api)} onText={onJsonText} /> : null))

  const open = (which: 'canvas' | 'json') => {
    if (which === 'json') setJsonOpened(true)
    setTab(which)
  }

  /** An issue clicked: on the canvas its state is selected; in the JSON view the cursor goes to it. */
  const jump = (pointer: string) => {
    const { state } = placeOf(pointer)
    if (showing() === 'canvas' && state) {
      canvas?.focus(state)
      return
    }
    if (showing() === 'json' && jsonView) return jsonView.jump(pointer)
    open('json')
    // The JSON view is drawn (or loaded) first.
    setTimeout(() => jsonView?.jump(pointer), 100)
  }

  const publish = () => {
    setNotice('')
    return act(async () => {
      await draft.flush()
      const result = await consoleApi.publishFlow(params.botId, params.flowId)
      draft.setFlow(await consoleApi.flow(params.botId, params.flowId))
      setNotice(t('flows.published', { time: when(result.published_at), version: String(draft.flow()?.published_version) }))
    })
  }

  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <div class="actions">
        <h1>{draft.flow()?.name ?? t('flows.flow')}</h1>
        <span class="muted" data-flow-status>
          {draft.flow()?.status}
          {draft.flow()?.published_version ? t('flows.live', { version: String(draft.flow()?.published_version) }) : ''}
          {draft.flow()?.has_unpublished_changes ? t('flows.unpublished') : ''}
        </span>
        <span class="spacer" />
        <span class="muted" data-save-state>
          {t(`flows.state.${draft.state()}`)}
        </span>
        <Show when={blocked() && draft.state() !== 'saving' && draft.state() !== 'unsaved'}>
          <span class="issue-error" data-publish-blocked>
            {blocked()}
          </span>
        </Show>
        <button type="button" class="primary" onClick={() => void publish()} disabled={blocked() !== ''} title={blocked() || t('flows.publishTitle')}>
          {t('flows.publish')}
        </button>
      </div>
      <ErrorLine error={error() || draft.error()} />
      <Show when={notice()}>
        <p role="status">{notice()}</p>
      </Show>
      <Show when={isConversation()}>
        <nav class="tabs" role="tablist" aria-label={t('flows.shownAs')}>
          <a href="#canvas" role="tab" aria-selected={showing() === 'canvas'} classList={{ active: showing() === 'canvas' }} onClick={(event) => (event.preventDefault(), open('canvas'))} data-tab="canvas">
            {t('flows.canvas')}
          </a>
          <a href="#json" role="tab" aria-selected={showing() === 'json'} classList={{ active: showing() === 'json' }} onClick={(event) => (event.preventDefault(), open('json'))} data-tab="json">
            {t('flows.json')}
          </a>
        </nav>
      </Show>
      <Show when={draft.flow()}>
        <Show
          when={isConversation()}
          fallback={<JsonView definition={draft.definition()} issues={draft.issues()} api={(api) => (jsonView = api)} onText={onJsonText} />}
        >
          <FlowBuilder
            botId={params.botId}
            draft={draft}
            readOnly={draft.state() === 'invalid json'}
            current={talk().current}
            walked={talk().walked}
            publishedVersion={draft.flow()?.published_version ?? null}
            api={(api) => (canvas = api)}
            showInstead={showing() === 'json'}
            instead={<Show when={jsonOpened()}>{jsonElement()}</Show>}
            testChat={<TestChat botId={params.botId} flowId={params.flowId} definition={draft.definition} disabled={() => counts().errors > 0 || draft.state() !== 'saved'} onMoved={setTalk} />}
          />
        </Show>
      </Show>
      <div class="flow-editor">
        <section class="card">
          <h2>
            {t('flows.errors', { count: counts().errors })}, {t('flows.warnings', { count: counts().warnings })}
          </h2>
          <ul class="issues" data-issues>
            <For each={[...draft.issues().errors.map((i) => ({ ...i, level: 'error' })), ...draft.issues().warnings.map((i) => ({ ...i, level: 'warning' }))]}>
              {(issue) => (
                <li>
                  <button type="button" class={`link issue-${issue.level}`} data-issue={issue.code} onClick={() => jump(issue.path)}>
                    {t(`flows.level.${issue.level as 'error' | 'warning'}`)}: {issue.message} <code>{issue.path}</code>
                  </button>
                </li>
              )}
            </For>
          </ul>
        </section>
        <div class="grid-stack">
          <Versions botId={params.botId} flowId={params.flowId} current={() => JSON.stringify(draft.definition(), null, 2)} published={() => draft.flow()?.published_version ?? null} onRestore={(definition) => draft.change(definition as Json)} />
        </div>
      </div>
    </>
  )
}
