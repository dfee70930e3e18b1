import { createSignal, Show } from 'solid-js'
import { type Chatbot, consoleApi, type ModelTest } from '../console-api.ts'
import { createAction, ErrorLine, intoView } from '../parts.tsx'

/**
 * The model the chatbot's agent states use: its settings, and a test that calls it the way a
 * run would (the settings as typed, saved or not), saying what failed in words to act on.
 */
export function LlmSection(props: { bot: Chatbot; onSaved: (bot: Chatbot) => void }) {
  const [baseUrl, setBaseUrl] = createSignal(props.bot.llm?.base_url ?? '')
  const [model, setModel] = createSignal(props.bot.llm?.model ?? '')
  const [temperature, setTemperature] = createSignal(props.bot.llm?.temperature?.toString() ?? '')
  const [apiKey, setApiKey] = createSignal('')
  // The limits: tokens as they are, deadlines in seconds (the API takes milliseconds).
  const seconds = (ms: number | undefined) => (ms === undefined ? '' : String(ms / 1000))
  const [maxTokens, setMaxTokens] = createSignal(props.bot.llm?.max_tokens?.toString() ?? '')
  const [callDeadline, setCallDeadline] = createSignal(seconds(props.bot.llm?.call_deadline_ms))
  const [runDeadline, setRunDeadline] = createSignal(seconds(props.bot.llm?.run_deadline_ms))
  const { error, act } = createAction()
  const [saved, setSaved] = createSignal(false)
  const [tested, setTested] = createSignal<ModelTest | null>(null)
  const [testing, setTesting] = createSignal(false)
  const save = (event: SubmitEvent) => {
    event.preventDefault()
    setSaved(false)
    const llm: Record<string, unknown> = { base_url: baseUrl().trim(), model: model().trim() }
    if (temperature().trim() !== '') llm.temperature = Number(temperature())
    if (apiKey().trim() !== '') llm.api_key = apiKey().trim()
    // Empty restores the default (null); a number is sent as it is, for the server to judge.
    const number = (text: string, scale = 1) => (text.trim() === '' ? null : Math.round(Number(text) * scale))
    llm.max_tokens = number(maxTokens())
    llm.call_deadline_ms = number(callDeadline(), 1000)
    llm.run_deadline_ms = number(runDeadline(), 1000)
    void act(async () => {
      const updated = await consoleApi.updateChatbot(props.bot.id, { llm: llm as never })
      props.onSaved(updated)
      setApiKey('')
      setMaxTokens(updated.llm?.max_tokens?.toString() ?? '')
      setCallDeadline(seconds(updated.llm?.call_deadline_ms))
      setRunDeadline(seconds(updated.llm?.run_deadline_ms))
      setSaved(true)
    })
  }
  const remove = () =>
    act(async () => {
      props.onSaved(await consoleApi.updateChatbot(props.bot.id, { llm: null }))
      setBaseUrl('')
      setModel('')
    })
  // The settings as typed; the stored key goes along only to the stored base URL (the server decides).
  const test = () => {
    setTested(null)
    setTesting(true)
    const typed = baseUrl().trim() && model().trim() ? { base_url: baseUrl().trim(), model: model().trim(), ...(apiKey().trim() ? { api_key: apiKey().trim() } : {}) } : undefined
    void act(async () => setTested(await consoleApi.testModel(props.bot.id, typed))).finally(() => setTesting(false))
  }
  return (
    <section class="card llm">
      <h2>LLM for agent states</h2>
      <p class="muted">Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, OpenRouter…).</p>
      <form class="grid-stack" onSubmit={save}>
        <label class="field">
          Base URL
          <input name="llm_base_url" value={baseUrl()} onInput={(e) => setBaseUrl(e.currentTarget.value)} placeholder="https://api.openai.com/v1" required />
        </label>
        <label class="field">
          Model
          <input name="llm_model" value={model()} onInput={(e) => setModel(e.currentTarget.value)} placeholder="gpt-4o-mini" required />
        </label>
        <label class="field">
          Temperature <span class="limit">0 to 2; empty for the model's default</span>
          <input name="llm_temperature" inputMode="decimal" value={temperature()} onInput={(e) => setTemperature(e.currentTarget.value)} />
        </label>
        <label class="field">
          Most tokens per answer <span class="limit">sent as max_tokens; 1 to 8192, empty for 1024</span>
          <input name="llm_max_tokens" inputMode="numeric" value={maxTokens()} onInput={(e) => setMaxTokens(e.currentTarget.value)} />
        </label>
        <label class="field">
          Deadline of one model call <span class="limit">seconds, 1 to 600; empty for 120</span>
          <input name="llm_call_deadline" inputMode="decimal" value={callDeadline()} onInput={(e) => setCallDeadline(e.currentTarget.value)} />
        </label>
        <label class="field">
          Deadline of one run <span class="limit">seconds, 1 to 1800; empty for 300; past it the state goes to on_error</span>
          <input name="llm_run_deadline" inputMode="decimal" value={runDeadline()} onInput={(e) => setRunDeadline(e.currentTarget.value)} />
        </label>
        <label class="field">
          API key <span class="limit">write-only; {props.bot.llm?.api_key ? `set (${props.bot.llm.api_key}); empty keeps it for this base URL` : 'none set'}</span>
          <input name="llm_api_key" type="password" autocomplete="off" value={apiKey()} onInput={(e) => setApiKey(e.currentTarget.value)} />
        </label>
        <ErrorLine error={error()} />
        <div class="actions">
          <button type="submit" class="primary">
            Save the LLM settings
          </button>
          <button type="button" onClick={test} disabled={testing()}>
            {testing() ? 'Testing…' : 'Test the model'}
          </button>
          <Show when={props.bot.llm}>
            <button type="button" onClick={() => void remove()}>
              Remove
            </button>
          </Show>
          <Show when={saved()}>
            <span role="status">Saved.</span>
          </Show>
        </div>
        {/* Keyed: a second test's answer replaces the first one's line. */}
        <Show when={tested()} keyed>
          {(shown) =>
            shown.ok ? (
              <p ref={intoView} class="status-delivered" role="status" data-model-ok>
                {shown.model} answered in {Math.round(shown.latency_ms)} ms{shown.answer ? `: “${shown.answer}”` : ' (it called the offered tool)'}. Agent states can use it.
              </p>
            ) : (
              <p ref={intoView} class="status-failed" role="alert" data-model-failed={shown.failure.kind}>
                <strong>{FAILURE_TITLES[shown.failure.kind] ?? shown.failure.kind}</strong>: {shown.failure.message}
              </p>
            )
          }
        </Show>
      </form>
    </section>
  )
}

/** The test's failure kinds, as a heading a person reads first (docs/agents.md). */
const FAILURE_TITLES: Record<string, string> = {
  dns: 'Unknown host',
  refused: 'Nothing answers there',
  tls: 'Certificate refused',
  timeout: 'No answer in time',
  blocked_address: 'Address not allowed',
  unauthorized: 'Key refused',
  not_found: 'Not found',
  rate_limited: 'Rate limited',
  provider_error: 'Provider failed',
  bad_request: 'Request refused',
  bad_answer: 'Not a chat-completions API',
  no_answer: 'No usable answer',
}
