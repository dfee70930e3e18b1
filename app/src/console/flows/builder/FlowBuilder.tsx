import { createEffect, createMemo, createResource, createSignal, For, type JSX, on, onCleanup, onMount, Show } from 'solid-js'
import { consoleApi } from '../../console-api.ts'
import type { DraftState } from '../draft-state.ts'
import { adoptBuilderStyles } from './builder-styles.ts'
import { Canvas, type CanvasApi } from './canvas/Canvas.tsx'
import { Insights, type InsightsShown } from './Insights.tsx'
import { addState, type Clipboard, connect, copyStates, deleteStates, layoutOf, moveStates, pasteStates, type Position } from './model/edits.ts'
import { flowModel, kindLabel, type StateKind } from './model/flow-model.ts'
import { issuesByState, type LevelledIssue } from './model/issues.ts'
import { isObject, type Json, writeAt } from './model/json.ts'
import { autoLayout, freeSpot, NODE_WIDTH } from './model/layout.ts'
import { newState, PALETTE, TEMPLATES } from './model/starters.ts'
import type { Builder } from './panel/fields.tsx'
import { FlowSettings } from './panel/FlowSettings.tsx'
import { DeleteConfirm } from './panel/DeleteConfirm.tsx'
import { StatePanel } from './panel/StatePanel.tsx'
import { t } from '../../../i18n/language.ts'

/** Copied states outlive a flow: they paste into another one too. */
let clipboard: Clipboard | null = null

export interface FlowBuilderProps {
  botId: string
  draft: DraftState
  /** The JSON view's text does not parse: the canvas shows the last definition that did, and changes nothing. */
  readOnly: boolean
  /** The test chat's state, highlighted, and the ways its last turn took. */
  current: string | null
  walked: ReadonlySet<string>
  publishedVersion: number | null
  api?: (api: BuilderApi) => void
  /** Shown instead of the canvas, the panel staying beside it (the JSON view). */
  instead: JSX.Element
  showInstead: boolean
  /** The test chat, in the panel's "Try it" tab, beside the canvas. */
  testChat: JSX.Element
}

export interface BuilderApi {
  /** Selects a state and brings it into view. */
  focus(name: string): void
}

/**
 * The flow builder: the definition drawn as a canvas to edit by clicking and dragging, a
 * palette of states, a side panel with a form for the selected state, templates for an empty
 * flow, and what real conversations did. Every change is a new definition handed to the draft
 * (saved, validated, undoable); what the builder does not understand it leaves as it was.
 */
export default function FlowBuilder(props: FlowBuilderProps) {
  adoptBuilderStyles()
  const draft = props.draft
  const model = createMemo(() => flowModel(draft.definition()))
  const [selected, setSelected] = createSignal<ReadonlySet<string>>(new Set())
  const [auto, setAuto] = createSignal<Record<string, Position>>({})
  const [insights, setInsights] = createSignal<InsightsShown | null>(null)
  const [side, setSide] = createSignal<'edit' | 'try'>('edit')
  /** States asked to be deleted, waiting for the confirmation that shows what leads to them. */
  const [deleting, setDeleting] = createSignal<string[] | null>(null)
  /** Every state has its place (the automatic layout is asynchronous): what a test waits for before it clicks. */
  const [ready, setReady] = createSignal(false)
  const [mcp] = createResource(() => props.botId, (id) => consoleApi.mcps(id).then((page) => page.items.map((item) => ({ id: item.id, name: item.name }))).catch(() => []))
  const [flows] = createResource(() => props.botId, (id) => consoleApi.flows(id).then((page) => page.items.filter((item) => item.type === 'meta').map((item) => ({ id: item.id, name: item.name }))).catch(() => []))
  let canvas: CanvasApi | undefined
  let pasteCount = 0

  // States the definition does not place are laid out automatically (in memory: opening a
  // flow writes nothing); a drag or "Tidy up" writes places into `layout`.
  createEffect(
    on(model, (current) => {
      const placed = layoutOf(draft.definition()) ?? {}
      const missing = current.nodes.filter((node) => !placed[node.name] && !auto()[node.name])
      if (missing.length > 0) {
        const laid = autoLayout(current)
        setAuto((known) => ({ ...laid, ...known }))
      }
      // The first time every state has its place, the whole flow is shown.
      if (!ready()) requestAnimationFrame(() => (canvas?.fit(), setReady(true)))
    }),
  )
  const places = createMemo(() => {
    const placed = layoutOf(draft.definition()) ?? {}
    const all: Record<string, Position> = {}
    for (const node of model().nodes) {
      const at = placed[node.name]
      all[node.name] = at && typeof at.x === 'number' && typeof at.y === 'number' ? at : (auto()[node.name] ?? { x: 0, y: 0 })
    }
    return all
  })
  const allIssues = createMemo<LevelledIssue[]>(() => [
    ...draft.issues().errors.map((issue) => ({ ...issue, level: 'error' as const })),
    ...draft.issues().warnings.map((issue) => ({ ...issue, level: 'warning' as const })),
  ])
  const byState = createMemo(() => issuesByState(draft.issues().errors, draft.issues().warnings))

  const change = (next: Json, typing?: string) => {
    if (!props.readOnly) draft.change(next, typing)
  }
  const builder: Builder = {
    flow: () => draft.definition(),
    set: (pointer, value, typing) => change(writeAt(draft.definition(), pointer, value), typing),
    apply: change,
    issues: allIssues,
    stateNames: () => model().nodes.map((node) => node.name),
    variables: () => {
      const declared = draft.definition().variables
      return isObject(declared) ? (Object.fromEntries(Object.entries(declared).filter(([, value]) => isObject(value))) as Record<string, Json>) : {}
    },
    templateNames: () => [...Object.keys(builder.variables()), ...contactKeys()],
    mcpIntegrations: () => mcp() ?? [],
    metaFlows: () => flows() ?? [],
  }
  /** contact.KEY names worth offering: the usual ones and those the flow already uses. */
  const contactKeys = createMemo(() => {
    const used = new Set(['contact.first_name', 'contact.name', 'contact.email', 'contact.phone'])
    for (const match of JSON.stringify(draft.definition()).matchAll(/\{\{\s*(contact\.[A-Za-z0-9_]+)/g)) used.add(match[1] as string)
    return [...used]
  })

  const select = (names: string[], additive = false) => {
    if (!additive) return setSelected(new Set(names))
    const next = new Set(selected())
    for (const name of names) next.has(name) ? next.delete(name) : next.add(name)
    setSelected(next)
  }
  const only = () => (selected().size === 1 ? ([...selected()][0] as string) : null)
  // A state renamed or deleted elsewhere (the JSON view, undo) leaves the selection.
  createEffect(() => {
    const names = new Set(model().nodes.map((node) => node.name))
    if ([...selected()].some((name) => !names.has(name))) setSelected(new Set([...selected()].filter((name) => names.has(name))))
  })

  const add = (kind: StateKind) => {
    // Beside the selected state (building a chain left to right), else in the middle of the view.
    const beside = only()
    const middle = canvas?.middle() ?? { x: 0, y: 0 }
    const wanted = beside && places()[beside] ? { x: (places()[beside] as Position).x + NODE_WIDTH + 80, y: (places()[beside] as Position).y } : middle
    // Never on top of a card already there: down the column to the first free spot.
    const at = freeSpot(wanted, 120, canvas?.cards() ?? [])
    const made = newState(kind, '')
    const { flow, name } = addState(draft.definition(), made.base, made.state, at, made.variables)
    // A question or list waits again on anything else: it names itself.
    const fixed = kind === 'question' || kind === 'list' ? writeAt(flow, `/states/${name}/on/0/to`, name) : flow
    change(fixed)
    select([name])
  }
  const remove = (names: string[]) => {
    setDeleting(null)
    if (names.length === 0) return
    change(deleteStates(draft.definition(), names))
    setSelected(new Set<string>())
  }
  const askDelete = (names: string[]) => {
    if (names.length === 0 || props.readOnly) return
    setSide('edit')
    setDeleting(names)
  }
  const copy = () => {
    if (selected().size > 0) clipboard = copyStates(draft.definition(), [...selected()])
  }
  const paste = () => {
    if (!clipboard) return
    pasteCount++
    const { flow, names } = pasteStates(draft.definition(), clipboard, { x: 40 * pasteCount, y: 40 * pasteCount })
    // Copied states without a place of their own get one near the middle.
    const middle = canvas?.middle() ?? { x: 0, y: 0 }
    const unplaced = names.filter((name) => !(layoutOf(flow) ?? {})[name])
    change(unplaced.length > 0 ? moveStates(flow, Object.fromEntries(unplaced.map((name, i) => [name, { x: middle.x + i * 30, y: middle.y + i * 30 }]))) : flow)
    select(names)
  }
  const tidy = () => change(moveStates(draft.definition(), autoLayout(model())))

  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement
    if (target.closest('input, textarea, select')) return
    const mod = event.ctrlKey || event.metaKey
    const key = event.key.toLowerCase()
    if (mod && key === 'z') return event.preventDefault(), event.shiftKey ? draft.redo() : draft.undo()
    if (mod && key === 'y') return event.preventDefault(), draft.redo()
    if (mod && key === 'c') return copy()
    if (mod && key === 'v') return event.preventDefault(), paste()
    if (mod && key === 'a') return event.preventDefault(), select(model().nodes.map((node) => node.name))
    if (event.key === 'Delete' || event.key === 'Backspace') return event.preventDefault(), askDelete([...selected()])
    if (event.key === 'Escape') return deleting() ? setDeleting(null) : select([])
    if (key === 'f' && !mod) return canvas?.fit()
    if ((key === '+' || key === '=') && !mod) return canvas?.zoomBy(1.2)
    if (key === '-' && !mod) return canvas?.zoomBy(1 / 1.2)
    const arrows: Record<string, Position> = { arrowleft: { x: -1, y: 0 }, arrowright: { x: 1, y: 0 }, arrowup: { x: 0, y: -1 }, arrowdown: { x: 0, y: 1 } }
    const step = arrows[key]
    if (step && selected().size > 0) {
      event.preventDefault()
      const by = event.shiftKey ? 50 : 10
      const current = places()
      change(moveStates(draft.definition(), Object.fromEntries([...selected()].map((name) => [name, { x: (current[name]?.x ?? 0) + step.x * by, y: (current[name]?.y ?? 0) + step.y * by }]))), `move:${[...selected()].join(',')}`)
    }
  }
  props.api?.({
    focus(name) {
      select([name])
      canvas?.centerOn(name)
    },
  })
  onMount(() => {
    // Undo and redo work wherever the focus is in the builder, not only on the canvas.
    const keys = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || (event.target as HTMLElement).closest('input, textarea, select, .cm-editor')) return
      // Inside the canvas, its own key handler has them already.
      if (!(event.target as HTMLElement).closest('.builder') || (event.target as HTMLElement).closest('.canvas')) return
      if (event.key.toLowerCase() === 'z' || event.key.toLowerCase() === 'y') onKey(event)
    }
    document.addEventListener('keydown', keys)
    onCleanup(() => document.removeEventListener('keydown', keys))
  })

  const empty = () => model().nodes.length === 0
  const useTemplate = (id: string) => {
    const template = TEMPLATES.find((candidate) => candidate.id === id)
    if (!template) return
    // Shown whole once its states have their places, as a flow just opened.
    setReady(false)
    change({ ...draft.definition(), ...template.flow({ integrationId: mcp()?.[0]?.id ?? null }) })
  }

  return (
    <div class="builder" data-builder data-ready={ready() ? '' : undefined}>
      <div class="builder-toolbar" role="toolbar" aria-label={t('builder.toolbar')} hidden={props.showInstead}>
        <span class="palette" aria-label={t('builder.palette')}>
          <For each={PALETTE}>
            {(kind) => (
              <button type="button" class={`add kind-${kind}`} disabled={props.readOnly} onClick={() => add(kind)} data-add={kind} title={t('builder.addKind', { kind: kindLabel(kind).toLowerCase() })}>
                + {kindLabel(kind)}
              </button>
            )}
          </For>
        </span>
        <span class="spacer" />
        <button type="button" onClick={() => draft.undo()} disabled={!draft.steps().undo || props.readOnly} title={t('builder.undoTitle')}>
          {t('builder.undo')}
        </button>
        <button type="button" onClick={() => draft.redo()} disabled={!draft.steps().redo || props.readOnly} title={t('builder.redoTitle')}>
          {t('builder.redo')}
        </button>
        <button type="button" onClick={tidy} disabled={props.readOnly || empty()} title={t('builder.tidyTitle')}>
          {t('builder.tidy')}
        </button>
        <button type="button" onClick={() => canvas?.fit()} title={t('builder.fitTitle')}>
          {t('builder.fit')}
        </button>
        <button type="button" class="icon" onClick={() => canvas?.zoomBy(1.2)} aria-label={t('builder.zoomIn')}>
          +
        </button>
        <button type="button" class="icon" onClick={() => canvas?.zoomBy(1 / 1.2)} aria-label={t('builder.zoomOut')}>
          −
        </button>
      </div>
      <Show when={!props.showInstead}>
        <Insights botId={props.botId} flowId={draft.flow()?.id ?? ''} publishedVersion={props.publishedVersion} onShow={setInsights} />
      </Show>
      <Show when={props.readOnly}>
        <p class="builder-notice" role="status">{t('builder.readOnly')}</p>
      </Show>
      <div class="builder-main">
        <div class="builder-canvas" hidden={props.showInstead}>
          <Canvas
            model={model()}
            places={places()}
            selected={selected()}
            issues={byState()}
            current={props.current}
            walked={props.walked}
            insights={insights()}
            readOnly={props.readOnly}
            onSelect={select}
            onMove={(moved) => change(moveStates(draft.definition(), moved))}
            onConnect={(from, way, to) => change(connect(draft.definition(), from, way, to))}
            onOpen={(name) => {
              select([name])
              setSide('edit')
              queueMicrotask(() => document.querySelector<HTMLInputElement>('.builder-panel input[name="state_name"]')?.focus())
            }}
            onKey={onKey}
            api={(api) => (canvas = api)}
          />
          <Show when={empty()}>
            <div class="templates" data-templates>
              <h3>{t('builder.templates')}</h3>
              <div class="template-cards">
                <For each={TEMPLATES}>
                  {(template) => (
                    <button type="button" class="template-card" disabled={props.readOnly} onClick={() => useTemplate(template.id)} data-template={template.id}>
                      <strong>{template.title()}</strong>
                      <span class="muted">{template.description()}</span>
                    </button>
                  )}
                </For>
              </div>
              <p class="muted">{t('builder.orPalette')}</p>
            </div>
          </Show>
        </div>
        <Show when={props.showInstead}>{props.instead}</Show>
        <aside class="builder-panel nowheel" aria-label={t('builder.side')}>
          <nav class="tabs" role="tablist" aria-label={t('builder.sideTabs')}>
            <a href="#edit" role="tab" aria-selected={side() === 'edit'} classList={{ active: side() === 'edit' }} onClick={(event) => (event.preventDefault(), setSide('edit'))} data-side="edit">
              {t('builder.edit')}
            </a>
            <a href="#try" role="tab" aria-selected={side() === 'try'} classList={{ active: side() === 'try' }} onClick={(event) => (event.preventDefault(), setSide('try'))} data-side="try">
              {t('builder.try')}
            </a>
          </nav>
          <div class="side-try" hidden={side() !== 'try'}>
            {props.testChat}
          </div>
          <div class="side-edit" hidden={side() !== 'edit'}>
          <Show when={deleting()} keyed>
            {(names) => <DeleteConfirm flow={draft.definition()} names={names} onDelete={() => remove(names)} onKeep={() => (setDeleting(null), document.querySelector<HTMLElement>('.builder .canvas')?.focus())} />}
          </Show>
          <Show
            when={only()}
            keyed
            fallback={
              <Show when={selected().size > 1} fallback={<FlowSettings builder={builder} />}>
                <div class="multi">
                  <p>{t('builder.selected', { count: selected().size })}</p>
                  <div class="actions">
                    <button type="button" onClick={copy}>
                      {t('builder.copy')}
                    </button>
                    <button type="button" class="danger" onClick={() => askDelete([...selected()])}>
                      {t('builder.deleteThem')}
                    </button>
                  </div>
                </div>
              </Show>
            }
          >
            {(name) => <StatePanel builder={builder} name={name} onRenamed={(to) => select([to])} onDelete={() => askDelete([name])} onDuplicate={() => (copy(), paste())} />}
          </Show>
          </div>
        </aside>
      </div>
      <p class="muted builder-keys" hidden={props.showInstead}>
        {t('builder.keys')}
      </p>
    </div>
  )
}
