import { useParams } from '@solidjs/router'
import { createResource, createSignal, For, Show } from 'solid-js'
import { type Chatbot, consoleApi, type McpIntegration, type McpTest, type McpTool } from '../console-api.ts'
import { BotTabs, createAction, ErrorLine, ShownOnce, when } from '../parts.tsx'
import { ChatappSection } from './ChatappSection.tsx'
import { McpAuthorization } from './McpAuthorization.tsx'

/** The chatbot's other integrations: the rest-api and messaging-app channels, MCP tool servers, the LLM its agent states use. */
export default function IntegrationsScreen() {
  const params = useParams<{ botId: string }>()
  const [bot, { mutate: setBot }] = createResource(() => params.botId, consoleApi.chatbot)
  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <h1>Integrations</h1>
      <RestApiSection botId={params.botId} />
      <ChatappSection botId={params.botId} />
      <McpSection botId={params.botId} />
      <Show when={bot()}>{(loaded) => <LlmSection bot={loaded()} onSaved={setBot} />}</Show>
    </>
  )
}

function RestApiSection(props: { botId: string }) {
  const [integration, { refetch }] = createResource(() => props.botId, (id) => consoleApi.channelIfAny(id, 'rest-api', consoleApi.restApi))
  const [deliveries, { refetch: reloadDeliveries }] = createResource(
    () => (integration() ? props.botId : null),
    (id) => consoleApi.deliveries(id),
  )
  const [url, setUrl] = createSignal('')
  const [secret, setSecret] = createSignal('')
  const { error, act } = createAction()
  const create = (event: SubmitEvent) => {
    event.preventDefault()
    void act(async () => {
      const made = await consoleApi.createRestApi(props.botId, { name: 'REST API', webhook_url: url().trim() })
      setSecret(made.signing_secret)
      await refetch()
    })
  }
  const saveUrl = (event: SubmitEvent) => {
    event.preventDefault()
    void act(async () => {
      await consoleApi.updateRestApi(props.botId, { webhook_url: url().trim() })
      setUrl('')
      await refetch()
    })
  }
  const rotate = () =>
    act(async () => {
      const rotated = await consoleApi.updateRestApi(props.botId, { rotate_secret: true })
      setSecret(rotated.signing_secret ?? '')
      await refetch()
    })
  const redeliver = (id: string) =>
    act(async () => {
      await consoleApi.redeliver(props.botId, id)
      await reloadDeliveries()
    })

  return (
    <section class="card rest-api">
      <h2>REST API channel</h2>
      <ErrorLine error={error()} />
      <Show when={integration() !== undefined} fallback={<p class="loading">Loading…</p>}>
        <Show
          when={integration()}
          fallback={
            <form class="inline-form" onSubmit={create}>
              <label>
                Webhook URL
                <input name="webhook_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} placeholder="https://example.com/parley-webhook" required />
              </label>
              <button type="submit" class="primary">
                Add the REST API channel
              </button>
            </form>
          }
        >
          {(rest) => (
            <>
              <p>
                The bot's answers are POSTed, signed, to <code data-webhook-url>{rest().config.webhook_url}</code>. Signing secret: <code>{rest().config.signing_secret}</code>
              </p>
              <form class="inline-form" onSubmit={saveUrl}>
                <label>
                  New webhook URL
                  <input name="new_webhook_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} required />
                </label>
                <button type="submit">Change URL</button>
                <button type="button" onClick={() => void rotate()}>
                  Rotate the signing secret
                </button>
              </form>
              <Show when={secret()}>
                <div>
                  <p>The signing secret, shown this once: put it in the receiver now. The old one stops at once.</p>
                  <ShownOnce value={secret()} mark="signing-secret" onDone={() => setSecret('')} />
                </div>
              </Show>
              <div class="actions">
                <h2>Deliveries</h2>
                <button type="button" onClick={() => void reloadDeliveries()}>
                  Refresh
                </button>
              </div>
              <table class="table deliveries">
                <thead>
                  <tr>
                    <th>Status</th>
                    <th>Attempts</th>
                    <th>Last answer</th>
                    <th class="wide">Created</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  <For each={deliveries()?.items ?? []} fallback={<tr><td colSpan={5} class="muted">No delivery yet.</td></tr>}>
                    {(delivery) => (
                      <tr data-delivery={delivery.id} data-status={delivery.status}>
                        <td class={`status-${delivery.status}`}>{delivery.status}</td>
                        <td>{delivery.attempts}</td>
                        <td>{delivery.last_status_code ?? delivery.last_error ?? '—'}</td>
                        <td class="wide">{when(delivery.created_at)}</td>
                        <td>
                          <Show when={delivery.status === 'failed'}>
                            <button type="button" onClick={() => void redeliver(delivery.id)}>
                              Redeliver
                            </button>
                          </Show>
                        </td>
                      </tr>
                    )}
                  </For>
                </tbody>
              </table>
            </>
          )}
        </Show>
      </Show>
    </section>
  )
}

function McpSection(props: { botId: string }) {
  const [servers, { refetch }] = createResource(() => props.botId, consoleApi.mcps)
  const [name, setName] = createSignal('')
  const [url, setUrl] = createSignal('')
  const [auth, setAuth] = createSignal<'none' | 'oauth' | 'bearer'>('none')
  const [token, setToken] = createSignal('')
  const { error, act } = createAction()
  const add = (event: SubmitEvent) => {
    event.preventDefault()
    const body: Record<string, unknown> = { name: name().trim(), url: url().trim() }
    if (auth() === 'oauth') body.auth = { type: 'oauth' }
    if (auth() === 'bearer') body.auth = { type: 'bearer', token: token() }
    void act(async () => {
      await consoleApi.createMcp(props.botId, body)
      setName('')
      setUrl('')
      setToken('')
      await refetch()
    })
  }
  return (
    <section class="card mcp">
      <h2>MCP tool servers</h2>
      <form class="inline-form" onSubmit={add}>
        <label>
          Name
          <input name="mcp_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} required placeholder="orders" />
        </label>
        <label>
          URL
          <input name="mcp_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} required placeholder="https://mcp.example.com/mcp" />
        </label>
        <label>
          Sign-in
          <select name="mcp_auth" value={auth()} onChange={(e) => setAuth(e.currentTarget.value as 'none' | 'oauth' | 'bearer')}>
            <option value="none">none</option>
            <option value="oauth">OAuth (authorize in the browser)</option>
            <option value="bearer">bearer token</option>
          </select>
        </label>
        <Show when={auth() === 'bearer'}>
          <label>
            Token
            <input name="mcp_token" type="password" autocomplete="off" value={token()} onInput={(e) => setToken(e.currentTarget.value)} required />
          </label>
        </Show>
        <button type="submit" class="primary">
          Add server
        </button>
      </form>
      <ErrorLine error={error()} />
      <For each={servers()?.items ?? []}>{(server) => <McpServer botId={props.botId} server={server} />}</For>
    </section>
  )
}

function McpServer(props: { botId: string; server: McpIntegration }) {
  const [test, setTest] = createSignal<McpTest | null>(null)
  const [tools, setTools] = createSignal<McpTool[]>([])
  const { error, setError, act } = createAction()
  const [trying, setTrying] = createSignal<string | null>(null)
  const [args, setArgs] = createSignal('{}')
  const [result, setResult] = createSignal('')
  const run = () =>
    act(async () => {
      const answer = await consoleApi.testMcp(props.botId, props.server.id)
      setTest(answer)
      if (answer.ok) setTools(answer.tools)
    })
  // The allow list as last saved: the server's answer, not the list reloaded (which would redraw this server).
  const [allowed, setAllowed] = createSignal(props.server.config.tools.allow)
  const toggle = async (tool: string, on: boolean) => {
    const names = tools().map((t) => t.name)
    const current = allowed() ?? names
    const next = on ? [...new Set([...current, tool])] : current.filter((n) => n !== tool)
    await act(async () => {
      const updated = await consoleApi.updateMcp(props.botId, props.server.id, { tools: { allow: next } })
      setAllowed(updated.config.tools.allow)
      const listed = await consoleApi.mcpTools(props.botId, props.server.id)
      setTools(listed.tools)
    })
  }
  const call = (event: SubmitEvent) => {
    event.preventDefault()
    const tool = trying()
    if (!tool) return
    setResult('')
    let parsed: unknown
    try {
      parsed = JSON.parse(args())
    } catch (failure) {
      return setError(`the arguments are not JSON: ${(failure as SyntaxError).message}`)
    }
    void act(async () => {
      const answer = await consoleApi.callTool(props.botId, props.server.id, tool, parsed)
      setResult(JSON.stringify(answer.content, null, 2) + (answer.is_error ? '\n(the tool reported an error)' : ''))
    })
  }
  return (
    <div class="card mcp-server" data-mcp={props.server.name}>
      <div class="actions">
        <strong>{props.server.name}</strong>
        <code>{props.server.config.url}</code>
        <span class="spacer" />
        <button type="button" onClick={() => void run()}>
          Test the connection
        </button>
      </div>
      <Show when={props.server.config.auth?.type === 'oauth'}>
        <McpAuthorization botId={props.botId} server={props.server} />
      </Show>
      <ErrorLine error={error()} />
      {/* Keyed: a second test's answer replaces the first one's line. */}
      <Show when={test()} keyed>
        {(shown) => {
          return shown.ok ? (
            <p class="status-delivered" data-mcp-ok>
              Connected to {shown.server.name} {shown.server.version} in {Math.round(shown.latency_ms)} ms: {shown.tools.length} tools.
            </p>
          ) : (
            <p class="status-failed" data-mcp-failed>
              {shown.failure.kind}: {shown.failure.message}
            </p>
          )
        }}
      </Show>
      <Show when={tools().length > 0}>
        <ul class="issues tools">
          <For each={tools()}>
            {(tool) => (
              <li class="actions" data-tool={tool.name}>
                <label>
                  <input type="checkbox" checked={tool.allowed} onChange={(e) => void toggle(tool.name, e.currentTarget.checked)} /> {tool.name}
                </label>
                <span class="muted">{tool.description ?? ''}</span>
                <button type="button" class="link" onClick={() => setTrying(tool.name)}>
                  Try it
                </button>
              </li>
            )}
          </For>
        </ul>
        <p class="muted">Ticked tools are offered to the chatbot's agent states; the others never are.</p>
      </Show>
      <Show when={trying()}>
        <form class="grid-stack" onSubmit={call}>
          <label class="field">
            Arguments for {trying()} (JSON)
            <textarea name="tool_arguments" rows={3} value={args()} onInput={(e) => setArgs(e.currentTarget.value)} />
          </label>
          <div class="actions">
            <button type="submit" class="primary">
              Call {trying()}
            </button>
          </div>
          <Show when={result()}>
            <pre class="snippet" data-tool-result>
              {result()}
            </pre>
          </Show>
        </form>
      </Show>
    </div>
  )
}

function LlmSection(props: { bot: Chatbot; onSaved: (bot: Chatbot) => void }) {
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
          <Show when={props.bot.llm}>
            <button type="button" onClick={() => void remove()}>
              Remove
            </button>
          </Show>
          <Show when={saved()}>
            <span role="status">Saved.</span>
          </Show>
        </div>
      </form>
    </section>
  )
}
