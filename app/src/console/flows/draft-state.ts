import { createSignal } from 'solid-js'
import { consoleApi, type Flow } from '../console-api.ts'
import { errorText } from '../parts.tsx'
import { history } from './builder/model/history.ts'
import type { Issue } from './builder/model/issues.ts'
import type { Json } from './builder/model/json.ts'

export type SaveState = 'saved' | 'saving' | 'unsaved' | 'invalid json'

const SAVE_AFTER_MS = 600
/** Edits of one field closer together than this are one undo step. */
const TYPING_MS = 1200

/**
 * A flow's working copy as the editor holds it: the definition (the one source both the
 * canvas and the JSON view show), saved a moment after the last change (PATCH) and checked by
 * the validate endpoint, with undo and redo over whole definitions.
 */
export function draftState(botId: string, flowId: string) {
  const [flow, setFlow] = createSignal<Flow | null>(null)
  const [definition, setDefinition] = createSignal<Json>({})
  const [issues, setIssues] = createSignal<{ errors: Issue[]; warnings: Issue[] }>({ errors: [], warnings: [] })
  const [state, setState] = createSignal<SaveState>('saved')
  const [error, setError] = createSignal('')
  const [steps, setSteps] = createSignal({ undo: false, redo: false })
  const past = history<Json>()
  let timer: ReturnType<typeof setTimeout> | undefined
  let typing: { key: string; at: number } | null = null
  let saving: Promise<void> = Promise.resolve()

  const save = async () => {
    const sent = definition()
    setState('saving')
    try {
      setFlow(await consoleApi.saveFlow(botId, flowId, { flow: sent }))
      const result = await consoleApi.validateFlow(botId, flowId)
      setIssues({ errors: result.errors, warnings: result.warnings })
      setError('')
      if (definition() === sent) setState('saved')
    } catch (failure) {
      setState('unsaved')
      setError(errorText(failure))
    }
  }
  const schedule = () => {
    setState('unsaved')
    clearTimeout(timer)
    timer = setTimeout(() => (saving = saving.then(save)), SAVE_AFTER_MS)
  }
  const showSteps = () => setSteps({ undo: past.canUndo(), redo: past.canRedo() })
  /** Puts back a definition undo or redo found (none: nothing to step to); a typing run ends there. */
  const restore = (found: Json | undefined) => {
    if (found === undefined) return
    typing = null
    setDefinition(found)
    showSteps()
    schedule()
  }

  return {
    flow,
    setFlow,
    definition,
    issues,
    state,
    setState,
    error,
    steps,
    async load() {
      const loaded = await consoleApi.flow(botId, flowId)
      setFlow(loaded)
      setDefinition(loaded.flow as Json)
      // Opening changes nothing: only the findings are asked for.
      const result = await consoleApi.validateFlow(botId, flowId)
      setIssues({ errors: result.errors, warnings: result.warnings })
    },
    /** A new definition from the canvas or the JSON view; edits of one field (`typingKey`) in quick succession merge into one undo step. */
    change(next: Json, typingKey?: string) {
      const now = Date.now()
      const merging = typingKey !== undefined && typing?.key === typingKey && now - typing.at < TYPING_MS
      if (!merging) past.push(definition())
      typing = typingKey === undefined ? null : { key: typingKey, at: now }
      setDefinition(next)
      showSteps()
      schedule()
    },
    undo() {
      restore(past.undo(definition()))
    },
    redo() {
      restore(past.redo(definition()))
    },
    /** Saves now (before publishing), waiting for a save under way. */
    async flush() {
      if (state() === 'unsaved') {
        clearTimeout(timer)
        saving = saving.then(save)
      }
      await saving
    },
    dispose: () => clearTimeout(timer),
  }
}

export type DraftState = ReturnType<typeof draftState>
