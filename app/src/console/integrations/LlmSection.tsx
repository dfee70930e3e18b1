import { createSignal, Show } from 'solid-js'
import { type Chatbot, consoleApi, type ModelTest } from '../console-api.ts'
import { createAction, ErrorLine, intoView } from '../parts.tsx'
import { t, type TextKey } from '../../i18n/language.ts'

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
      <h2>{t('llm.title')}</h2>
      <p class="muted">{t('llm.intro')}</p>
      <form class="grid-stack" onSubmit={save}>
        <label class="field">
          {t('llm.baseUrl')}
          <input name="llm_base_url" value={baseUrl()} onInput={(e) => setBaseUrl(e.currentTarget.value)} placeholder="https://api.openai.com/v1" required />
        </label>
        <label class="field">
          {t('llm.model')}
          <input name="llm_model" value={model()} onInput={(e) => setModel(e.currentTarget.value)} placeholder="gpt-4o-mini" required />
        </label>
        <label class="field">
          {t('llm.temperature')} <span class="limit">{t('llm.temperatureHint')}</span>
          <input name="llm_temperature" inputMode="decimal" value={temperature()} onInput={(e) => setTemperature(e.currentTarget.value)} />
        </label>
        <label class="field">
          {t('llm.maxTokens')} <span class="limit">{t('llm.maxTokensHint')}</span>
          <input name="llm_max_tokens" inputMode="numeric" value={maxTokens()} onInput={(e) => setMaxTokens(e.currentTarget.value)} />
        </label>
        <label class="field">
          {t('llm.callDeadline')} <span class="limit">{t('llm.callDeadlineHint')}</span>
          <input name="llm_call_deadline" inputMode="decimal" value={callDeadline()} onInput={(e) => setCallDeadline(e.currentTarget.value)} />
        </label>
        <label class="field">
          {t('llm.runDeadline')} <span class="limit">{t('llm.runDeadlineHint')}</span>
          <input name="llm_run_deadline" inputMode="decimal" value={runDeadline()} onInput={(e) => setRunDeadline(e.currentTarget.value)} />
        </label>
        <label class="field">
          {t('llm.apiKey')} <span class="limit">{props.bot.llm?.api_key ? t('llm.keySet', { hint: props.bot.llm.api_key }) : t('llm.keyNone')}</span>
          <input name="llm_api_key" type="password" autocomplete="off" value={apiKey()} onInput={(e) => setApiKey(e.currentTarget.value)} />
        </label>
        <ErrorLine error={error()} />
        <div class="actions">
          <button type="submit" class="primary">
            {t('llm.save')}
          </button>
          <button type="button" onClick={test} disabled={testing()}>
            {testing() ? t('llm.testing') : t('llm.test')}
          </button>
          <Show when={props.bot.llm}>
            <button type="button" onClick={() => void remove()}>
              {t('int.remove')}
            </button>
          </Show>
          <Show when={saved()}>
            <span role="status">{t('llm.saved')}</span>
          </Show>
        </div>
        {/* Keyed: a second test's answer replaces the first one's line. */}
        <Show when={tested()} keyed>
          {(shown) =>
            shown.ok ? (
              <p ref={intoView} class="status-delivered" role="status" data-model-ok>
                {shown.answer
                  ? t('llm.answered', { model: shown.model, ms: Math.round(shown.latency_ms), answer: shown.answer })
                  : t('llm.calledTool', { model: shown.model, ms: Math.round(shown.latency_ms) })}
              </p>
            ) : (
              <p ref={intoView} class="status-failed" role="alert" data-model-failed={shown.failure.kind}>
                <strong>{failureTitle(shown.failure.kind)}</strong>: {shown.failure.message}
              </p>
            )
          }
        </Show>
      </form>
    </section>
  )
}

/** The test's failure kinds, as a heading a person reads first (docs/agents.md); a kind the app does not know, as it came. */
const FAILURE_KINDS = ['dns', 'refused', 'tls', 'timeout', 'blocked_address', 'unauthorized', 'not_found', 'rate_limited', 'provider_error', 'bad_request', 'bad_answer', 'no_answer'] as const
const failureTitle = (kind: string): string => ((FAILURE_KINDS as readonly string[]).includes(kind) ? t(`llm.failure.${kind}` as TextKey & `llm.failure.${string}`) : kind)
