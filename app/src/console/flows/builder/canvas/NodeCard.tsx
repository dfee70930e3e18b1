import { For, onCleanup, onMount, Show } from 'solid-js'
import type { Position } from '../model/edits.ts'
import { KIND_LABELS, type StateNode } from '../model/flow-model.ts'
import { type LevelledIssue, plural } from '../model/issues.ts'
import { NODE_WIDTH } from '../model/layout.ts'

/** What real conversations did in a state, over the chosen period. */
export interface NodeInsight {
  entered: number
  stopped: number
  handoffs: number
  agent_failures: number
}

/**
 * One state on the canvas: its kind (message, question, capture, condition, handoff, LLM
 * agent, end), what it says and asks, a port per way out (drag from it to connect), and the
 * validator's findings about it.
 */
export function NodeCard(props: {
  node: StateNode
  at: Position
  start: boolean
  unreachable: boolean
  deadEnd: boolean
  selected: boolean
  current: boolean
  issues: LevelledIssue[]
  /** undefined: insights are off; null: on, and nobody came here. */
  insight: NodeInsight | null | undefined
  onPress(event: PointerEvent): void
  onPortPress(way: string, event: PointerEvent): void
  onOpen(): void
  /** Reached by the keyboard (Tab): selected, as a click would. */
  onKeyFocus(): void
  /** Watches the card's size (its ports' places); answers how to stop. */
  observe(card: HTMLElement): () => void
}) {
  let card!: HTMLDivElement
  const errors = () => props.issues.filter((issue) => issue.level === 'error')
  const warnings = () => props.issues.filter((issue) => issue.level === 'warning')
  const portIssues = (way: string) => props.issues.filter((issue) => issue.path.includes(`/${way}/`) || issue.path.endsWith(`/${way}`))
  onMount(() => onCleanup(props.observe(card)))
  const title = () =>
    [
      `${KIND_LABELS[props.node.kind]} "${props.node.name}"`,
      props.start ? 'the start' : '',
      props.unreachable ? 'never reached from the start' : '',
      props.deadEnd ? 'no way out' : '',
      ...props.issues.map((issue) => `${issue.level}: ${issue.message}`),
    ]
      .filter(Boolean)
      .join('\n')
  return (
    <div
      ref={card}
      class={`node kind-${props.node.kind} nopan`}
      classList={{ start: props.start, unreachable: props.unreachable, 'dead-end': props.deadEnd, selected: props.selected, current: props.current, 'has-errors': errors().length > 0, 'has-warnings': warnings().length > 0 }}
      style={{ transform: `translate(${props.at.x}px, ${props.at.y}px)`, width: `${NODE_WIDTH}px` }}
      data-state={props.node.name}
      data-kind={props.node.kind}
      tabindex="0"
      role="button"
      aria-pressed={props.selected}
      title={title()}
      onPointerDown={(event) => {
        if ((event.target as HTMLElement).closest('.handle')) return
        props.onPress(event)
      }}
      onDblClick={() => props.onOpen()}
      onFocus={() => card.matches(':focus-visible') && !props.selected && props.onKeyFocus()}
      onKeyDown={(event) => {
        if (event.key === 'Enter' && event.target === card) {
          event.preventDefault()
          props.onOpen()
        }
      }}
    >
      <div class="node-head">
        <span class="node-kind">{KIND_LABELS[props.node.kind]}</span>
        <span class="node-name">{props.node.name}</span>
        <Show when={props.start}>
          <span class="node-start" title="Conversations start here">start</span>
        </Show>
        <Show when={errors().length > 0}>
          <span class="node-errors" data-node-errors>
            {plural(errors().length, 'error')}
          </span>
        </Show>
        <Show when={errors().length === 0 && warnings().length > 0}>
          <span class="node-warnings">{plural(warnings().length, 'warning')}</span>
        </Show>
      </div>
      <div class="node-body">
        <For each={props.node.says.slice(0, 3)}>{(line) => <p class="node-says">{line}</p>}</For>
        <Show when={props.node.says.length > 3}>
          <p class="node-more">+{props.node.says.length - 3} more</p>
        </Show>
        <Show when={props.node.asks}>
          <p class="node-asks">{props.node.asks}</p>
        </Show>
        <Show when={errors()[0]}>{(first) => <p class="node-issue">{first().message}</p>}</Show>
        <Show when={props.insight !== undefined}>
          <p class="node-insight" data-insight>
            <Show when={props.insight} fallback="no conversations">
              {(seen) => (
                <>
                  {seen().entered} in · {seen().stopped} stopped{seen().entered ? ` (${Math.round((100 * seen().stopped) / seen().entered)}%)` : ''}
                  <Show when={seen().handoffs}> · {seen().handoffs} to a person</Show>
                  <Show when={seen().agent_failures}> · {seen().agent_failures} failed</Show>
                </>
              )}
            </Show>
          </p>
        </Show>
      </div>
      <Show when={props.node.ports.length > 0}>
        <ul class="node-ports">
          <For each={props.node.ports}>
            {(port) => (
              <li class={`port port-${port.kind}`} classList={{ open: port.to === null, faulty: portIssues(port.way).some((issue) => issue.level === 'error') }} data-port={port.way}>
                <span class="port-label">{port.label}</span>
                <Show when={port.to}>
                  <span class="port-to">→ {port.to}</span>
                </Show>
                <span class="handle nopan" data-handle={port.way} title={`Drag onto a state: where "${port.label}" goes`} onPointerDown={(event) => props.onPortPress(port.way, event)} />
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  )
}
