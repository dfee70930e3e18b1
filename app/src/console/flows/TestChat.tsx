import { createSignal, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { createAction, ErrorLine } from '../parts.tsx'

type Line = { who: 'bot' | 'me' | 'event'; text: string; buttons?: { id: string; title: string }[] }

/** A chat with the draft (the editor's definition, saved or not), through the real engine; nothing is stored. */
export function TestChat(props: { botId: string; flowId: string; definition: () => unknown; disabled: () => boolean }) {
  const [lines, setLines] = createSignal<Line[]>([])
  const [state, setState] = createSignal<unknown>(null)
  const [text, setText] = createSignal('')
  const { error, act } = createAction()
  const send = (input: Record<string, unknown>, shown?: string) =>
    act(async () => {
      const result = await consoleApi.testRun(props.botId, props.flowId, { flow: props.definition(), state: input.kind === 'start' ? null : state(), input })
      setState(result.state)
      const said: Line[] = result.messages.map((message) => ({ who: 'bot', text: message.text ?? `[${message.kind}]`, buttons: message.buttons }))
      const events: Line[] = result.events.filter((event) => event.type !== 'captured').map((event) => ({ who: 'event', text: event.type === 'agent_run' ? 'an LLM agent would answer here (not run in tests)' : event.type }))
      setLines([...(input.kind === 'start' ? [] : lines()), ...(shown ? [{ who: 'me' as const, text: shown }] : []), ...said, ...events])
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
      <p class="muted">Runs the definition in the editor, not the published version. Nothing is stored.</p>
      <div class="chat-log" data-test-chat>
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
        <button type="submit" disabled={state() === null}>
          Send
        </button>
      </form>
    </section>
  )
}
