import { createEffect, createSignal, For, on, Show } from 'solid-js'
import { api } from '../../api.ts'
import { createAction, ErrorLine } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

type Line = { who: 'bot' | 'me' | 'event' | 'agent'; text: string; buttons?: { id: string; title: string }[] }

interface AgentReport {
  test: true
  state: string
  model: string | null
  outcome: 'answer' | 'exit' | 'failed'
  reason?: string
  tools: string[]
  total_tokens: number
}

interface RunResult {
  state: { state: string; status: string } & Record<string, unknown>
  messages: { kind: string; text?: string; buttons?: { id: string; title: string }[] }[]
  events: { type: string; state?: string }[]
  steps: { from: string | null; way: string; to: string }[]
  agent?: AgentReport
}

const EVENT_KINDS = ['handoff', 'closed', 'unmatched'] as const
const eventText = (type: string): string | undefined => ((EVENT_KINDS as readonly string[]).includes(type) ? t(`test.${type as (typeof EVENT_KINDS)[number]}`) : undefined)

/**
 * A chat with the draft (the editor's definition, saved or not), through the real engine; LLM
 * agent states answer with the chatbot's model, marked as a test. Nothing is stored. The state
 * it reaches and the ways each turn took are told to the canvas to highlight.
 */
export function TestChat(props: {
  botId: string
  flowId: string
  definition: () => unknown
  disabled: () => boolean
  onMoved: (moved: { current: string | null; walked: ReadonlySet<string> }) => void
}) {
  const [lines, setLines] = createSignal<Line[]>([])
  const [state, setState] = createSignal<unknown>(null)
  const [text, setText] = createSignal('')
  const [thinking, setThinking] = createSignal(false)
  const { error, act } = createAction()
  let log!: HTMLDivElement
  // The newest line stays in view, as in a chat.
  createEffect(on(lines, () => queueMicrotask(() => log.scrollTo({ top: log.scrollHeight }))))

  const historyOf = (said: Line[]) =>
    said
      .filter((line) => line.who === 'me' || line.who === 'bot' || line.who === 'agent')
      .map((line) => ({ role: line.who === 'me' ? 'visitor' : 'bot', text: line.text.slice(0, 4096) }))
      .slice(-200)

  const send = (input: Record<string, unknown>, shown?: string) =>
    act(async () => {
      const starting = input.kind === 'start'
      const before = starting ? [] : lines()
      const mine: Line[] = shown ? [{ who: 'me', text: shown }] : []
      setLines([...before, ...mine])
      setThinking(true)
      try {
        const result = await api<RunResult>('POST', `/chatbots/${props.botId}/flows/${props.flowId}/test-run`, {
          flow: props.definition(),
          state: starting ? null : state(),
          input,
          history: historyOf(before),
        })
        setState(result.state)
        const answered = result.agent?.outcome === 'answer' ? result.messages.length - 1 : -1
        const said: Line[] = result.messages.map((message, index) => ({ who: index === answered ? 'agent' : 'bot', text: message.text ?? `[${message.kind}]`, buttons: message.buttons }))
        const agent: Line[] = result.agent ? [{ who: 'event', text: agentLine(result.agent) }] : []
        const events: Line[] = result.events.flatMap((event) => {
          const said = eventText(event.type)
          return said ? [{ who: 'event' as const, text: said }] : []
        })
        setLines([...before, ...mine, ...agent, ...said, ...events])
        props.onMoved({ current: result.state.state, walked: new Set(result.steps.filter((step) => step.from !== null).map((step) => `${step.from}|${step.way}`)) })
      } finally {
        setThinking(false)
      }
    })

  return (
    <section class="card test-chat">
      <div class="actions">
        <h2>{t('test.title')}</h2>
        <span class="spacer" />
        <button type="button" disabled={props.disabled()} onClick={() => void send({ kind: 'start' })}>
          {t('test.start')}
        </button>
      </div>
      <p class="muted">{t('test.intro')}</p>
      <div class="chat-log" data-test-chat ref={log}>
        <For each={lines()}>
          {(line) => (
            <div class={line.who}>
              {line.text}
              <Show when={line.buttons}>
                <div class="actions">
                  <For each={line.buttons}>
                    {(button) => (
                      <button type="button" onClick={() => void send({ kind: 'reply', reply_to: 'button', id: button.id, title: button.title }, button.title)}>
                        {button.title}
                      </button>
                    )}
                  </For>
                </div>
              </Show>
            </div>
          )}
        </For>
        <Show when={thinking()}>
          <div class="event">…</div>
        </Show>
      </div>
      <ErrorLine error={error()} />
      <form
        class="inline-form"
        onSubmit={(event) => {
          event.preventDefault()
          const said = text().trim()
          if (!said) return
          setText('')
          void send({ kind: 'text', text: said }, said)
        }}
      >
        <input name="test_text" aria-label={t('test.say')} value={text()} onInput={(e) => setText(e.currentTarget.value)} disabled={state() === null} />
        <button type="submit" disabled={state() === null || thinking()}>
          {t('test.send')}
        </button>
      </form>
    </section>
  )
}

function agentLine(report: AgentReport): string {
  const model = report.model ? t('test.model', { model: report.model }) : t('test.noModel')
  const tools = report.tools.length > 0 ? t('test.tools', { tools: report.tools.join(', ') }) : ''
  if (report.outcome === 'failed') return t('test.failed', { state: report.state, model, reason: report.reason ?? t('test.noReason') })
  if (report.outcome === 'exit') return t('test.exit', { state: report.state, model, tools, tokens: String(report.total_tokens) })
  return t('test.answered', { state: report.state, model, tools, tokens: String(report.total_tokens) })
}
