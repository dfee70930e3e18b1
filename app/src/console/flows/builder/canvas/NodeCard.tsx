import { For, onCleanup, onMount, Show } from 'solid-js'
import type { Position } from '../model/edits.ts'
import { kindLabel, type StateNode } from '../model/flow-model.ts'
import type { LevelledIssue } from '../model/issues.ts'
import { NODE_WIDTH } from '../model/layout.ts'
import { t } from '../../../../i18n/language.ts'

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
      `${kindLabel(props.node.kind)} "${props.node.name}"`,
      props.start ? t('builder.node.start') : '',
      props.unreachable ? t('builder.node.unreachable') : '',
      props.deadEnd ? t('builder.node.deadEnd') : '',
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
        <span class="node-kind">{kindLabel(props.node.kind)}</span>
        <span class="node-name">{props.node.name}</span>
        <Show when={props.start}>
          <span class="node-start" title={t('builder.node.startsHere')}>{t('builder.node.startBadge')}</span>
        </Show>
        <Show when={errors().length > 0}>
          <span class="node-errors" data-node-errors>
            {t('flows.errors', { count: errors().length })}
          </span>
        </Show>
        <Show when={errors().length === 0 && warnings().length > 0}>
          <span class="node-warnings">{t('flows.warnings', { count: warnings().length })}</span>
        </Show>
      </div>
      <div class="node-body">
        <For each={props.node.says.slice(0, 3)}>{(line) => <p class="node-says">{line}</p>}</For>
        <Show when={props.node.says.length > 3}>
          <p class="node-more">{t('builder.node.more', { count: props.node.says.length - 3 })}</p>
        </Show>
        <Show when={props.node.asks}>
          <p class="node-asks">{props.node.asks}</p>
        </Show>
        <Show when={errors()[0]}>{(first) => <p class="node-issue">{first().message}</p>}</Show>
        <Show when={props.insight !== undefined}>
          <p class="node-insight" data-insight>
            <Show when={props.insight} fallback={t('builder.node.none')}>
              {(seen) => (
                <>
                  {t('builder.node.entered', { entered: seen().entered, stopped: seen().stopped })}{seen().entered ? ` (${Math.round((100 * seen().stopped) / seen().entered)}%)` : ''}
                  <Show when={seen().handoffs}>{t('builder.node.toPerson', { count: seen().handoffs })}</Show>
                  <Show when={seen().agent_failures}>{t('builder.node.failed', { count: seen().agent_failures })}</Show>
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
                <span class="handle nopan" data-handle={port.way} title={t('builder.node.port', { way: port.label })} onPointerDown={(event) => props.onPortPress(port.way, event)} />
              </li>
            )}
          </For>
        </ul>
      </Show>
    </div>
  )
}
