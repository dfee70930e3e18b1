import { json, jsonParseLinter } from '@codemirror/lang-json'
import { type Diagnostic, linter, lintGutter, setDiagnostics } from '@codemirror/lint'
import { EditorSelection } from '@codemirror/state'
import { basicSetup, EditorView } from 'codemirror'
import { createEffect, on, onCleanup, onMount } from 'solid-js'
import type { Issue } from './builder/model/issues.ts'
import { jsonPositions, spanOf } from './json-positions.ts'

export interface JsonViewApi {
  jump(pointer: string): void
}

/**
 * The definition as JSON text in CodeMirror (syntax, folding, search), each validation issue
 * marked at its JSON Pointer. Text that parses is handed on as a definition; the text follows
 * the definition when it changes elsewhere (the canvas, undo), and only then. The editor runs
 * in a shadow root, so its styles go in as adopted stylesheets (the app's CSP refuses <style>).
 */
export default function JsonView(props: {
  definition: unknown
  issues: { errors: Issue[]; warnings: Issue[] }
  onText: (parsed: { ok: true; value: unknown } | { ok: false }) => void
  api: (api: JsonViewApi) => void
}) {
  let host!: HTMLDivElement
  let view: EditorView | undefined
  /** The text last handed on (or shown), so that its own echo does not rewrite the editor. */
  let known = ''

  const serverIssues = (source: EditorView): Diagnostic[] => {
    const text = source.state.doc.toString()
    const positions = jsonPositions(text)
    const mark = (issue: Issue, severity: 'error' | 'warning'): Diagnostic | null => {
      const span = spanOf(positions, issue.path, text)
      return span ? { from: span.from, to: Math.max(span.to, span.from + 1), severity, message: `${issue.message} (${issue.code} at ${issue.path || '/'})`, source: issue.code } : null
    }
    return [...props.issues.errors.map((issue) => mark(issue, 'error')), ...props.issues.warnings.map((issue) => mark(issue, 'warning'))].filter((d): d is Diagnostic => d !== null)
  }
  const diagnostics = (source: EditorView) => [...jsonParseLinter()(source), ...serverIssues(source)]

  onMount(() => {
    known = JSON.stringify(props.definition, null, 2)
    const shadow = host.attachShadow({ mode: 'open' })
    view = new EditorView({
      parent: shadow,
      root: shadow,
      doc: known,
      extensions: [
        basicSetup,
        json(),
        EditorView.theme({ '&': { height: '600px', background: '#fff' }, '.cm-scroller': { overflow: 'auto' } }),
        lintGutter(),
        linter(diagnostics, { delay: 300 }),
        EditorView.updateListener.of((update) => {
          if (!update.docChanged) return
          const text = update.state.doc.toString()
          if (text === known) return
          known = text
          try {
            props.onText({ ok: true, value: JSON.parse(text) })
          } catch {
            props.onText({ ok: false })
          }
        }),
      ],
    })
    props.api({
      jump(pointer) {
        if (!view) return
        const text = view.state.doc.toString()
        const span = spanOf(jsonPositions(text), pointer, text)
        if (!span) return
        view.dispatch({ selection: EditorSelection.single(span.from, span.to), effects: EditorView.scrollIntoView(span.from, { y: 'center' }) })
        view.focus()
      },
    })
  })
  createEffect(
    on(
      () => props.definition,
      (definition) => {
        if (!view) return
        const text = JSON.stringify(definition, null, 2)
        // Text that parses to this definition stays as typed (spacing, key order as written).
        try {
          if (JSON.stringify(JSON.parse(view.state.doc.toString())) === JSON.stringify(definition)) return
        } catch {}
        known = text
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } })
      },
      { defer: true },
    ),
  )
  createEffect(
    on(
      () => props.issues,
      () => view && view.dispatch(setDiagnostics(view.state, diagnostics(view))),
      { defer: true },
    ),
  )
  onCleanup(() => view?.destroy())
  return <div class="editor-host" ref={host} data-json-view />
}
