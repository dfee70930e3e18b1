import type { AppDeps } from '../../../server/app.ts'
import type { Lookup } from '../../../server/support/outbound-url.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'

/** Names the tests resolve themselves: the DNS answer Parley gets, played back. */
export const FAKE_DNS: Record<string, string[]> = {
  'tools.test': ['127.0.0.1'],
  'receiver.test': ['127.0.0.1'],
  'rebind.test': ['10.1.2.3'],
}

export const fakeLookup: Lookup = async (host) => {
  const addresses = FAKE_DNS[host]
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
  return addresses.map((address) => ({ address }))
}

/**
 * A Parley that may reach 127.0.0.1 and the names `tools.test` and `receiver.test`
 * (PARLEY_OUTBOUND_ALLOW), with fake DNS; `rebind.test` resolves to a private address and is not
 * allowed, so it shows the check made when connecting.
 */
export function mcpApp(mcp: NonNullable<AppDeps['tuning']>['mcp'] = {}, env: Record<string, string> = {}): McpApp {
  const app = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1,tools.test,receiver.test', ...env }, { dnsLookup: fakeLookup, mcp })
  let bot: string | undefined
  const base = () => `/api/dev/v1/chatbots/${bot}/integrations/mcp`
  let counter = 0
  return Object.assign(app, {
    async chatbot(): Promise<string> {
      bot ??= (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Tools' } })).body.id as string
      return bot
    },
    /** Creates an mcp integration (name made unique) and answers its id. */
    async integration(body: Record<string, unknown>): Promise<string> {
      await this.chatbot()
      const created = await app.call('POST', base(), { body: { name: `server-${++counter}`, ...body } })
      if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`)
      return created.body.id as string
    },
    path: (id: string, rest = '') => `${base()}/${id}${rest}`,
    test: (id: string) => app.call('POST', `${base()}/${id}/test`),
    tools: (id: string) => app.call('GET', `${base()}/${id}/tools`),
    callTool: (id: string, name: string, args?: unknown) =>
      app.call('POST', `${base()}/${id}/tools/${encodeURIComponent(name)}/call`, { body: args === undefined ? {} : { arguments: args } }),
  })
}

export type McpApp = TestApp & {
  chatbot(): Promise<string>
  integration(body: Record<string, unknown>): Promise<string>
  path(id: string, rest?: string): string
  test(id: string): ReturnType<TestApp['call']>
  tools(id: string): ReturnType<TestApp['call']>
  callTool(id: string, name: string, args?: unknown): ReturnType<TestApp['call']>
}
