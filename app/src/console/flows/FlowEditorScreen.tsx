import { json, jsonParseLinter } from '@codemirror/lang-json'
import { type Diagnostic, linter, lintGutter, setDiagnostics } from '@codemirror/lint'
import { EditorSelection } from '@codemirror/state'
import { useParams } from '@solidjs/router'
import { basicSetup, EditorView } from 'codemirror'
import { createResource, createSignal, For, onCleanup, onMount, Show } from 'solid-js'
import { consoleApi, type Flow, type Issue } from '../console-api.ts'
import { BotTabs, createAction, ErrorLine, errorText, when } from '../parts.tsx'
import { FlowDiagram } from './FlowDiagram.tsx'
import { jsonPositions, spanOf } from './json-positions.ts'
import { TestChat } from './TestChat.tsx'
import { Versions } from './Versions.tsx'

/**
 * A flow's editor: the definition in CodeMirror (JSON syntax, folding), saved as the working
 * copy a moment after typing stops and checked by the validate endpoint, whose errors and
 * warnings are marked at their JSON pointers; the diagram, a test chat with the draft,
 * publishing, and the published versions to compare and restore.
 */
export default function FlowEditorScreen() {
  const params = useParams<{ botId: string; flowId: string }>()
  const [bot] = createResource(() => params.botId, consoleApi.chatbot)
  const [flow, setFlow] = createSignal<Flow | null>(null)
  const [draft, setDraft] = createSignal<unknown>(null)
  const [issues, setIssues] = createSignal<{ errors: Issue[]; warnings: Issue[] }>({ errors: [], warnings: [] })
  const [state, setState] = createSignal<'saved' | 'saving' | 'unsaved' | 'invalid json'>('saved')
  const { error, setError, act } = createAction()
  const [notice, setNotice] = createSignal('')
  let host!: HTMLDivElement
  let view: EditorView | undefined
  let timer: ReturnType<typeof setTimeout> | undefined

  const serverIssues = (source: EditorView): Diagnostic[] => {
    const text = source.state.doc.toString()
    const positions = jsonPositions(text)
    const mark = (issue: Issue, severity: 'error' | 'warning'): Diagnostic | null => {
      const span = spanOf(positions, issue.path, text)
      return span ? { from: span.from, to: Math.max(span.to, span.from + 1), severity, message: `${issue.message} (${issue.code} at ${issue.path || '/'})`, source: issue.code } : null
    }
    return [...issues().errors.map((issue) => mark(issue, 'error')), ...issues().warnings.map((issue) => mark(issue, 'warning'))].filter((d): d is Diagnostic => d !== null)
  }

  const diagnostics = (source: EditorView) => [...jsonParseLinter()(source), ...serverIssues(source)]

  const check = async () => {
    const text = view?.state.doc.toString() ?? ''
    let parsed: unknown
    try {
      parsed = JSON.parse(text)
    } catch {
      setState('invalid json')
      return
    }
    setDraft(parsed)
    setState('saving')
    try {
      setFlow(await consoleApi.saveFlow(params.botId, params.flowId, { flow: parsed }))
      const result = await consoleApi.validateFlow(params.botId, params.flowId)
      setIssues({ errors: result.errors, warnings: result.warnings })
      setState('saved')
      // The linter reruns only after edits; the server's answer is shown at once.
      if (view) view.dispatch(setDiagnostics(view.state, diagnostics(view)))
    } catch (failure) {
      setState('unsaved')
      setError(errorText(failure))
    }
  }

  const load = (definition: unknown) => {
    const text = JSON.stringify(definition, null, 2)
    view?.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })
  }

  onMount(async () => {
    try {
      const loaded = await consoleApi.flow(params.botId, params.flowId)
      setFlow(loaded)
      setDraft(loaded.flow)
      // In a shadow root, CodeMirror's styles go in as adopted stylesheets: in the page itself
      // they would be <style> elements, which the app's CSP (style-src 'self') refuses.
      const shadow = host.attachShadow({ mode: 'open' })
      view = new EditorView({
        parent: shadow,
        root: shadow,
        doc: JSON.stringify(loaded.flow, null, 2),
        extensions: [
          basicSetup,
          json(),
          EditorView.theme({ '&': { height: '520px', background: '#fff' }, '.cm-scroller': { overflow: 'auto' } }),
          lintGutter(),
          linter(diagnostics, { delay: 300 }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return
            setState('unsaved')
            clearTimeout(timer)
            timer = setTimeout(() => void check(), 700)
          }),
        ],
      })
      await check()
    } catch (failure) {
      setError(errorText(failure))
    }
  })
  onCleanup(() => {
    clearTimeout(timer)
    view?.destroy()
  })

  /** Puts the cursor on a JSON Pointer of the definition and shows it. */
  const jump = (pointer: string) => {
    if (!view) return
    const text = view.state.doc.toString()
    const span = spanOf(jsonPositions(text), pointer, text)
    if (!span) return
    view.dispatch({ selection: EditorSelection.single(span.from, span.to), effects: EditorView.scrollIntoView(span.from, { y: 'center' }) })
    view.focus()
  }

  const publish = () => {
    setNotice('')
    return act(async () => {
      await check()
      const result = await consoleApi.publishFlow(params.botId, params.flowId)
      setFlow(await consoleApi.flow(params.botId, params.flowId))
      setNotice(`Published at ${when(result.published_at)}: new conversations start in version ${flow()?.published_version}.`)
    })
  }

  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <div class="actions">
        <h1>{flow()?.name ?? 'Flow'}</h1>
        <span class="muted" data-flow-status>
          {flow()?.status}
          {flow()?.published_version ? ` · live version ${flow()?.published_version}` : ''}
          {flow()?.has_unpublished_changes ? ' · unpublished changes' : ''}
        </span>
        <span class="spacer" />
        <span class="muted" data-save-state>
          {state()}
        </span>
        <button type="button" class="primary" onClick={() => void publish()} disabled={issues().errors.length > 0 || state() !== 'saved'}>
          Publish
        </button>
      </div>
      <ErrorLine error={error()} />
      <Show when={notice()}>
        <p role="status">{notice()}</p>
      </Show>
      <div class="flow-editor">
        <div class="grid-stack">
          <div class="editor-host" ref={host} />
          <section class="card">
            <h2>
              {issues().errors.length} errors, {issues().warnings.length} warnings
            </h2>
            <ul class="issues" data-issues>
              <For each={[...issues().errors.map((i) => ({ ...i, level: 'error' })), ...issues().warnings.map((i) => ({ ...i, level: 'warning' }))]}>
                {(issue) => (
                  <li>
                    <button type="button" class={`link issue-${issue.level}`} data-issue={issue.code} onClick={() => jump(issue.path)}>
                      {issue.level}: {issue.message} <code>{issue.path}</code>
                    </button>
                  </li>
                )}
              </For>
            </ul>
          </section>
        </div>
        <div class="grid-stack">
          <Show when={flow()?.type === 'conversation'}>
            <section class="card">
              <h2>Diagram</h2>
              <FlowDiagram definition={draft()} onPick={(state) => jump(`/states/${state}`)} />
            </section>
            <TestChat botId={params.botId} flowId={params.flowId} definition={draft} disabled={() => issues().errors.length > 0 || state() !== 'saved'} />
          </Show>
          <Versions botId={params.botId} flowId={params.flowId} current={() => view?.state.doc.toString() ?? ''} published={() => flow()?.published_version ?? null} onRestore={load} />
        </div>
      </div>
    </>
  )
}
