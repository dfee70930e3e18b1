import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { compiledParley } from '../../support/compiled-parley.ts'
import { freePort } from '../../support/free-port.ts'
import { type RunningParley, runParley } from '../../support/run-parley.ts'

export interface Person {
  email: string
  password: string
  name: string
}

/**
 * The compiled `dist/parley` as a new team starts it: a fresh data folder, a known port whose
 * address is its public URL (the desk's Origin check and the links it prints name it), and
 * what its first start printed: the API key and the first-admin link. `must` and `call` speak
 * the developer API with that key, as a team's own scripts would.
 */
export async function startParleyBinary(env: Record<string, string> = {}) {
  const port = freePort()
  const url = `http://127.0.0.1:${port}`
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-journey-'))
  const server: RunningParley = await runParley([compiledParley()], {
    PARLEY_DATA_DIR: dataDir,
    PORT: String(port),
    PARLEY_PUBLIC_URL: url,
    // Several actors share 127.0.0.1: no per-address limit may turn one of them away.
    PARLEY_RATE_LIMIT: '0',
    PARLEY_PUBLIC_RATE_LIMIT: '0',
    PARLEY_SOCKET_RATE_LIMIT: '0',
    ...env,
  })
  const banner = server.output()
  const key = /shown this once:\s+(pk_[0-9A-Za-z]+)/.exec(banner)?.[1]
  const setupLink = /(http\S+\/app\/setup#token=\S+)/.exec(banner)?.[1]
  if (!key || !setupLink) throw new Error(`no API key or setup link in the first start's text: ${banner.slice(0, 800)}`)

  const call = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : undefined }
  }
  const must = async (method: string, path: string, body?: unknown): Promise<any> => {
    const result = await call(method, path, body)
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${JSON.stringify(result.body)}`)
    return result.body
  }

  return {
    url,
    key,
    /** The one-time link the first start printed to create the first admin. */
    setupLink,
    /** Everything the binary printed on stdout so far (the first-start text, JSON log lines). */
    output: () => server.output(),
    call,
    must,
    /** A chatbot with `flow` published and a web integration (with `web`'s fields, widget_config say); its widget key. */
    async webChat(flow: ConversationFlow, name = 'Shop bot', web: Record<string, unknown> = {}): Promise<{ chatbotId: string; widgetKey: string }> {
      const bot = await must('POST', '/api/dev/v1/chatbots', { name })
      const made = await must('POST', `/api/dev/v1/chatbots/${bot.id}/flows`, { name: 'Main', type: 'conversation', flow })
      await must('POST', `/api/dev/v1/chatbots/${bot.id}/flows/${made.id}/publish`)
      const integration = await must('POST', `/api/dev/v1/chatbots/${bot.id}/integrations/web`, { name: 'Site', ...web })
      return { chatbotId: bot.id, widgetKey: integration.config.widget_key }
    },
    /** Invites a person with the API key and sets their password through the invite link's API. */
    async person(name: string, role: 'admin' | 'agent'): Promise<Person & { id: string }> {
      const email = `${name.toLowerCase()}@acme.test`
      const password = `${name}-correct-horse-battery`
      const made = await must('POST', '/api/dev/v1/users', { email, display_name: name, role })
      const token = new URL(made.invite.url).hash.replace('#token=', '')
      const accepted = await fetch(`${url}/api/dev/v1/auth/accept-invite`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ token, password }),
      })
      if (accepted.status !== 200) throw new Error(`accept-invite answered ${accepted.status}: ${await accepted.text()}`)
      return { email, password, name, id: made.id }
    },
    async stop(): Promise<void> {
      await server.stop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export type ParleyBinary = Awaited<ReturnType<typeof startParleyBinary>>
