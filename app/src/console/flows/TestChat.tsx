import { createEffect, createSignal, For, on, Show } from 'solid-js'
import { api } from '../../api.ts'
import { createAction, ErrorLine } from '../parts.tsx'

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

const EVENT_TEXT: Record<string, string> = { handoff: 'handed to a person (in a test, nobody is told)', closed: 'the conversation ended', unmatched: 'nothing matched: the fallback was said' }

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
        const events: Line[] = result.events.flatMap((event) => (EVENT_TEXT[event.type] ? [{ who: 'event' as const, text: EVENT_TEXT[event.type] as string }] : []))
        setLines([...before, ...mine, ...agent, ...said, ...events])
        props.onMoved({ current: result.state.state, walked: new Set(result.steps.filter((step) => step.from !== null).map((step) => `${step.from}|${step.way}`)) })
      } finally {
        setThinking(false)
      }
    })

  return (
    <section class="card test-chat">
      <div class="actions">
        <h2>Test the draft</h2>
        <span class="spacer" />
        <button type="button" disabled={props.disabled()} onClick={() => void send({ kind: 'start' })}>
          Start a test chat
        </button>
      </div>
      <p class="muted">Runs the definition being edited, not the published version; LLM agent states answer with the chatbot's model (a test: nothing is stored). The state it is in is marked on the canvas.</p>
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
        <input name="test_text" aria-label="Say to the draft" value={text()} onInput={(e) => setText(e.currentTarget.value)} disabled={state() === null} />
        <button type="submit" disabled={state() === null || thinking()}>
          Send
        </button>
      </form>
    </section>
  )
}

function agentLine(report: AgentReport): string {
  const model = report.model ? `${report.model}, test run` : 'no model set'
  const tools = report.tools.length > 0 ? `, tools: ${report.tools.join(', ')}` : ''
  if (report.outcome === 'failed') return `LLM agent "${report.state}" failed (${model}): ${report.reason ?? 'no reason given'}`
  if (report.outcome === 'exit') return `LLM agent "${report.state}" took an exit (${model}${tools}, ${report.total_tokens} tokens)`
  return `LLM agent "${report.state}" answered (${model}${tools}, ${report.total_tokens} tokens)`
}
