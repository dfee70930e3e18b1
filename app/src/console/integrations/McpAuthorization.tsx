import { createSignal, onCleanup, Show } from 'solid-js'
import { consoleApi, type McpIntegration } from '../console-api.ts'
import { createAction, ErrorLine, errorText, when } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

type Status = 'authorized' | 'needs_authorization' | 'not_connected'

const POLL_MS = 1500

/**
 * An OAuth-protected MCP server: whether Parley holds tokens for it, and Authorize, which
 * opens the authorization server's page in a new window (`POST .../oauth/start`) and watches
 * the record until the callback (`GET /oauth/mcp/callback`) has stored the tokens or the
 * authorization expires.
 */
export function McpAuthorization(props: { botId: string; server: McpIntegration }) {
  const auth = () => props.server.config.auth
  const [status, setStatus] = createSignal<Status | undefined>(auth()?.status)
  const [expiresAt, setExpiresAt] = createSignal<string | null>(auth()?.token_expires_at ?? null)
  const [waiting, setWaiting] = createSignal(false)
  const { error, setError, act } = createAction()
  let timer: ReturnType<typeof setTimeout> | undefined
  // A check under way when the screen closes must not set another timer after the cleanup.
  let closed = false
  onCleanup(() => {
    closed = true
    clearTimeout(timer)
  })

  const reload = async () => {
    const current = (await consoleApi.mcp(props.botId, props.server.id)).config.auth
    setStatus(current?.status)
    setExpiresAt(current?.token_expires_at ?? null)
    return current?.status
  }
  const watch = (until: number) => {
    if (closed) return
    timer = setTimeout(async () => {
      try {
        if ((await reload()) === 'authorized' || Date.now() > until) {
          setWaiting(false)
          return
        }
      } catch (failure) {
        setError(errorText(failure))
        setWaiting(false)
        return
      }
      watch(until)
    }, POLL_MS)
  }
  const authorize = async () => {
    // Opened before the request, while the click still counts as the person's: a window opened
    // after an await is a popup the browser may block.
    const opened = window.open('about:blank', '_blank')
    const sent = await act(async () => {
      const started = await consoleApi.startMcpOAuth(props.botId, props.server.id)
      if (opened) {
        opened.opener = null
        opened.location.href = started.authorization_url
      } else window.location.assign(started.authorization_url)
      setWaiting(true)
      clearTimeout(timer)
      watch(Date.parse(started.expires_at))
    })
    if (!sent) opened?.close()
  }

  return (
    <div class="actions mcp-auth" data-oauth-status={status()}>
      <span class={status() === 'authorized' ? 'status-delivered' : 'status-failed'}>
        {t('mcp.oauthStatus', { status: status() === 'authorized' ? t('mcp.authorized') : status() === 'not_connected' ? t('mcp.notConnected') : t('mcp.needsAuth') })}
        <Show when={status() === 'authorized' && expiresAt()}>{t('mcp.tokenUntil', { time: when(expiresAt()) })}</Show>
      </span>
      <Show when={auth()?.grant !== 'client_credentials'}>
        <button type="button" onClick={() => void authorize()}>
          {status() === 'authorized' ? t('mcp.authorizeAgain') : t('mcp.authorize')}
        </button>
      </Show>
      <Show when={waiting()}>
        <span class="muted" role="status">
          {t('mcp.waiting')}
        </span>
      </Show>
      <ErrorLine error={error()} />
    </div>
  )
}
