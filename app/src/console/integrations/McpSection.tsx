import { createResource, createSignal, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { createAction, ErrorLine } from '../parts.tsx'
import { McpServer } from './McpServer.tsx'
import { t } from '../../i18n/language.ts'

export type SignIn = 'none' | 'oauth' | 'bearer'

/** The sign-in part of an mcp integration's body, as the form's choice gives it. */
export function authOf(signIn: SignIn, token: string): Record<string, unknown> {
  return signIn === 'oauth' ? { type: 'oauth' } : signIn === 'bearer' ? { type: 'bearer', token } : { type: 'none' }
}

/** The chatbot's MCP tool servers: add one, and each server's card (test, tools, edit, switch off, remove). */
export function McpSection(props: { botId: string }) {
  const [servers, { refetch }] = createResource(() => props.botId, consoleApi.mcps)
  const [name, setName] = createSignal('')
  const [url, setUrl] = createSignal('')
  const [auth, setAuth] = createSignal<SignIn>('none')
  const [token, setToken] = createSignal('')
  const { error, act } = createAction()
  const add = (event: SubmitEvent) => {
    event.preventDefault()
    const body: Record<string, unknown> = { name: name().trim(), url: url().trim() }
    if (auth() !== 'none') body.auth = authOf(auth(), token())
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
      <h2>{t('mcp.title')}</h2>
      <form class="inline-form" onSubmit={add}>
        <label>
          {t('int.name')}
          <input name="mcp_name" value={name()} onInput={(e) => setName(e.currentTarget.value)} required placeholder={t('mcp.namePlaceholder')} />
        </label>
        <label>
          {t('int.url')}
          <input name="mcp_url" type="url" value={url()} onInput={(e) => setUrl(e.currentTarget.value)} required placeholder="https://mcp.example.com/mcp" />
        </label>
        <SignInFields signIn={auth()} token={token()} onSignIn={(value) => setAuth(value as SignIn)} onToken={setToken} prefix="mcp" />
        <button type="submit" class="primary">
          {t('mcp.add')}
        </button>
      </form>
      <ErrorLine error={error()} />
      <p class="muted">
        {t('mcp.intro')}
      </p>
      <For each={servers()?.items ?? []}>{(server) => <McpServer botId={props.botId} server={server} onRemoved={() => void refetch()} />}</For>
    </section>
  )
}

/** Sign-in: none, OAuth or a bearer token (with its field). `keep` adds "as it is", for an edit. */
export function SignInFields(props: { signIn: SignIn | 'keep'; token: string; onSignIn: (value: SignIn | 'keep') => void; onToken: (value: string) => void; prefix: string; keep?: string }) {
  return (
    <>
      <label>
        {t('mcp.signIn')}
        <select name={`${props.prefix}_auth`} value={props.signIn} onChange={(e) => props.onSignIn(e.currentTarget.value as SignIn | 'keep')}>
          <Show when={props.keep}>
            <option value="keep">{props.keep}</option>
          </Show>
          <option value="none">{t('mcp.none')}</option>
          <option value="oauth">{t('mcp.oauth')}</option>
          <option value="bearer">{t('mcp.bearer')}</option>
        </select>
      </label>
      <Show when={props.signIn === 'bearer'}>
        <label>
          {t('mcp.token')}
          <input name={`${props.prefix}_token`} type="password" autocomplete="off" value={props.token} onInput={(e) => props.onToken(e.currentTarget.value)} required />
        </label>
      </Show>
    </>
  )
}
