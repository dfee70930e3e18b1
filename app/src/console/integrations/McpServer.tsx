import { createSignal, For, Show } from 'solid-js'
import { consoleApi, type McpIntegration, type McpTest, type McpTool } from '../console-api.ts'
import { Confirm, createAction, ErrorLine, intoView } from '../parts.tsx'
import { McpAuthorization } from './McpAuthorization.tsx'
import { authOf, type SignIn, SignInFields } from './McpSection.tsx'
import { ToolTry } from './ToolTry.tsx'
import { t } from '../../i18n/language.ts'

/** Why a tool is not offered, and what ticking it does. */
const DENIED_BECAUSE = (why: NonNullable<McpTool['denied_by']>): string => t(`mcp.denied.${why}`)

/**
 * One MCP server: test the connection, tick the tools agent states may use (each denied one
 * says why), try a tool with a form drawn from its schema, change its settings, switch it off
 * or on, remove it.
 */
export function McpServer(props: { botId: string; server: McpIntegration; onRemoved: () => void }) {
  const [server, setServer] = createSignal(props.server)
  const [test, setTest] = createSignal<McpTest | null>(null)
  const [tools, setTools] = createSignal<McpTool[]>([])
  const [trying, setTrying] = createSignal<McpTool | null>(null)
  const [editing, setEditing] = createSignal(false)
  const [removing, setRemoving] = createSignal(false)
  const { error, act } = createAction()
  const update = (body: Record<string, unknown>) =>
    act(async () => {
      setServer(await consoleApi.updateMcp(props.botId, server().id, body))
      if (tools().length > 0) setTools((await consoleApi.mcpTools(props.botId, server().id)).tools)
    })
  const run = () =>
    act(async () => {
      const answer = await consoleApi.testMcp(props.botId, server().id)
      setTest(answer)
      if (answer.ok) setTools(answer.tools)
    })
  // Ticking writes an explicit allow list: the tools offered now, with this one in or out.
  const toggle = (tool: McpTool, on: boolean) => {
    const offered = tools().filter((candidate) => candidate.allowed).map((candidate) => candidate.name)
    const allow = on ? [...new Set([...offered, tool.name])] : offered.filter((name) => name !== tool.name)
    const deny = server().config.tools.deny.filter((name) => !(on && name === tool.name))
    void update({ tools: { allow, deny } })
  }
  const remove = () =>
    act(async () => {
      await consoleApi.deleteMcp(props.botId, server().id)
      setRemoving(false)
      props.onRemoved()
    })
  return (
    <div class="card mcp-server" data-mcp={server().name} data-active={String(server().is_active)}>
      <div class="actions">
        <strong>{server().name}</strong>
        <code>{server().config.url}</code>
        <Show when={!server().is_active}>
          <span class="badge off">{t('mcp.off')}</span>
        </Show>
        <span class="spacer" />
        <button type="button" onClick={() => void run()}>
          {t('mcp.test')}
        </button>
        <button type="button" onClick={() => setEditing(!editing())} aria-expanded={editing()}>
          {t('mcp.edit')}
        </button>
        <button type="button" onClick={() => void update({ is_active: !server().is_active })}>
          {server().is_active ? t('int.switchOff') : t('int.switchOn')}
        </button>
        <button type="button" class="danger" onClick={() => setRemoving(true)}>
          {t('int.remove')}
        </button>
      </div>
      <Show when={!server().is_active}>
        <p class="muted">{t('mcp.offNote')}</p>
      </Show>
      <Show when={editing()}>
        <EditServer server={server()} onSave={(body) => void update(body).then((ok) => ok && setEditing(false))} onCancel={() => setEditing(false)} />
      </Show>
      <Show when={server().config.auth?.type === 'oauth'}>
        <McpAuthorization botId={props.botId} server={server()} />
      </Show>
      <ErrorLine error={error()} />
      {/* Keyed: a second test's answer replaces the first one's line. */}
      <Show when={test()} keyed>
        {(shown) =>
          shown.ok ? (
            <p ref={intoView} class="status-delivered" data-mcp-ok>
              {t('mcp.connected', { server: `${shown.server.name} ${shown.server.version}`, ms: Math.round(shown.latency_ms), count: shown.tools.length })}
            </p>
          ) : (
            <p ref={intoView} class="status-failed" data-mcp-failed>
              {shown.failure.kind}: {shown.failure.message}
            </p>
          )
        }
      </Show>
      <Show when={tools().length > 0}>
        <ul class="issues tools">
          <For each={tools()}>
            {(tool) => (
              <li data-tool={tool.name} data-allowed={String(tool.allowed)}>
                <div class="actions">
                  <label>
                    <input type="checkbox" checked={tool.allowed} onChange={(e) => toggle(tool, e.currentTarget.checked)} /> {tool.name}
                  </label>
                  <span class="muted">{tool.description ?? ''}</span>
                  <button type="button" class="link" onClick={() => setTrying(tool)}>
                    {t('mcp.tryIt')}
                  </button>
                </div>
                <Show when={tool.denied_by}>{(why) => <p class="tool-denied" data-denied-by={why()}>{DENIED_BECAUSE(why())}</p>}</Show>
              </li>
            )}
          </For>
        </ul>
        <p class="muted">{t('mcp.ticked')}</p>
      </Show>
      <Show when={trying()} keyed>
        {(tool) => <ToolTry botId={props.botId} serverId={server().id} tool={tool} />}
      </Show>
      <Show when={removing()}>
        <Confirm title={t('mcp.removeTitle', { name: server().name })} confirm={t('mcp.removeConfirm')} onConfirm={() => void remove()} onCancel={() => setRemoving(false)}>
          <p>{t('mcp.removeBody')}</p>
        </Confirm>
      </Show>
    </div>
  )
}

/** Name, URL, sign-in and the tool call time limit; only what changed is sent. */
function EditServer(props: { server: McpIntegration; onSave: (body: Record<string, unknown>) => void; onCancel: () => void }) {
  const [name, setName] = createSignal(props.server.name)
  const [url, setUrl] = createSignal(props.server.config.url)
  const [signIn, setSignIn] = createSignal<SignIn | 'keep'>('keep')
  const [token, setToken] = createSignal('')
  const [seconds, setSeconds] = createSignal(String(props.server.config.timeout_ms / 1000))
  const save = (event: SubmitEvent) => {
    event.preventDefault()
    const body: Record<string, unknown> = {}
    if (name().trim() !== props.server.name) body.name = name().trim()
    if (url().trim() !== props.server.config.url) body.url = url().trim()
    if (signIn() !== 'keep') body.auth = authOf(signIn() as SignIn, token())
    const timeout = Math.round(Number(seconds()) * 1000)
    if (Number.isFinite(timeout) && timeout !== props.server.config.timeout_ms) body.timeout_ms = timeout
    props.onSave(body)
  }
  return (
    <form class="inline-form mcp-edit" onSubmit={save}>
      <label>
        {t('int.name')}
        <input name="mcp_edit_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} required />
      </label>
      <label>
        {t('int.url')}
        <input name="mcp_edit_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} required />
      </label>
      <SignInFields signIn={signIn()} token={token()} onSignIn={setSignIn} onToken={setToken} prefix="mcp_edit" keep={t('mcp.keep', { type: props.server.config.auth?.type ?? t('mcp.none') })} />
      <label>
        {t('mcp.timeout')}
        <input name="mcp_edit_timeout" inputMode="decimal" value={seconds()} onInput={(e) => setSeconds(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary">
        {t('int.save')}
      </button>
      <button type="button" onClick={() => props.onCancel()}>
        {t('int.cancel')}
      </button>
      <p class="muted">{t('mcp.newUrl')}</p>
    </form>
  )
}
