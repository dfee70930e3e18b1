import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type ChatappChat, text, userMessage } from '../channels/chatapp/support/chatapp-chat.ts'
import { fakeGraphApi } from '../channels/chatapp/support/fake-graph-api.ts'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { oauthServer, type RunningOAuthServer } from '../mcp/support/oauth-server.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { consoleSuite } from './support/console-suite.ts'
import { waitUntil } from './support/widget-page.ts'

const ACCESS_TOKEN = 'EAAG-console-access-token-0001'
const VERIFY_TOKEN = 'console-verify-token-4711'

describe('the messaging-app channel and MCP OAuth in the console, in Chromium against the compiled binary', () => {
  const graph = fakeGraphApi()
  const suite = consoleSuite({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })
  let as: RunningOAuthServer
  let protectedMcp: RunningMcpServer
  beforeAll(async () => {
    as = oauthServer()
    protectedMcp = await streamableServer({ oauth: { authorizationServer: as.origin, acceptsToken: (token) => as.acceptsToken(token) } })
  })
  afterAll(async () => {
    graph.stop()
    await protectedMcp?.stop()
    as?.stop()
  })

  test('chatapp: tokens saved and shown masked, the callback URL copied, the handshake refused then verified, the delivery log, a token replaced', async () => {
    const phoneNumberId = '106540352240001'
    graph.register(phoneNumberId, ACCESS_TOKEN)
    const chatbotId = await suite.bed.chatbot('Chat app bot')
    const admin = await suite.consoleOf(suite.ada, `/app/console/bots/${chatbotId}/integrations`, { permissions: ['clipboard-read', 'clipboard-write'] })
    const { page } = admin
    const section = page.locator('section.chatapp')
    await section.locator('input[name=phone_number_id]').fill(phoneNumberId)
    await section.locator('input[name=access_token]').fill(ACCESS_TOKEN)
    await section.locator('input[name=verify_token]').fill(VERIFY_TOKEN)
    await section.getByRole('button', { name: 'Add the messaging app channel' }).click()

    // Write-only: masked, and nowhere in the page.
    await section.locator('[data-callback-url]').waitFor()
    expect(await section.locator('[data-masked=access_token]').textContent()).toBe('••••0001')
    expect(await section.locator('[data-masked=verify_token]').textContent()).toBe('••••4711')
    expect(await page.content()).not.toContain(ACCESS_TOKEN)
    expect(await page.content()).not.toContain(VERIFY_TOKEN)
    await section.locator('[data-handshake=never]').waitFor()

    await section.getByRole('button', { name: 'Copy the callback URL' }).click()
    const callbackUrl = await page.evaluate(() => navigator.clipboard.readText())
    const [integration] = (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/integrations?type=chatapp`)).items
    expect(callbackUrl).toBe(`${suite.bed.url}/hooks/chatapp/${integration.id}`)

    // The provider's verification, with a mistyped token first.
    const handshake = (token: string) =>
      fetch(`${callbackUrl}?${new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token, 'hub.challenge': '1158201444' })}`)
    expect((await handshake('console-verify-token-4712')).status).toBe(403)
    await section.getByRole('button', { name: 'Refresh' }).click()
    await section.locator('[data-handshake-refused]').waitFor()
    expect(await section.locator('[data-handshake-refused]').textContent()).toContain('hub.verify_token does not match')
    expect(await section.locator('[data-handshake]').getAttribute('data-handshake')).toBe('refused')
    const verified = await handshake(VERIFY_TOKEN)
    expect(await verified.text()).toBe('1158201444')
    await section.getByRole('button', { name: 'Refresh' }).click()
    await section.locator('[data-handshake=verified]').waitFor()
    expect(await section.locator('[data-handshake-refused]').count()).toBe(0)

    // A user writes; the provider takes the answer.
    const from = { phoneNumberId } as ChatappChat
    const post = (body: unknown) => fetch(callbackUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await post(userMessage(from, '447911123456', text('hello')))).status).toBe(200)
    const rows = section.locator('tr[data-chatapp-delivery]')
    await waitUntil(async () => {
      await section.getByRole('button', { name: 'Refresh' }).click()
      const statuses = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-status')))
      return statuses.length >= 1 && statuses.every((status) => status === 'accepted')
    }, 'the answer accepted by the provider, in the log')
    const accepted = await rows.count()

    // A new access token replaces the old one, shown only masked; the provider does not know it and refuses the next answer.
    await section.getByRole('button', { name: 'Change the tokens' }).click()
    await section.locator('input[name=access_token]').fill('EAAG-console-access-token-0002')
    await section.getByRole('button', { name: 'Save the tokens' }).click()
    await waitUntil(async () => (await section.locator('[data-masked=access_token]').textContent()) === '••••0002', 'the new token, masked')
    expect((await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/integrations/chatapp`)).config.access_token).toBe('••••0002')
    expect(await page.content()).not.toContain('EAAG-console-access-token-0002')
    expect((await post(userMessage(from, '447911123456', text('again')))).status).toBe(200)
    await waitUntil(async () => {
      await section.getByRole('button', { name: 'Refresh' }).click()
      return (await section.locator('tr[data-status=failed]').count()) >= 1
    }, 'the refused answer failed in the log')
    expect(await section.locator('tr[data-status=accepted]').count()).toBe(accepted)
    expect(await section.locator('tr[data-status=failed]').first().textContent()).toMatch(/190|token/i)
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('mcp oauth: a server needing authorization is authorized in a new window and then shown authorized, its tools listed', async () => {
    const chatbotId = await suite.bed.chatbot('OAuth tools bot')
    const admin = await suite.consoleOf(suite.ada, `/app/console/bots/${chatbotId}/integrations`)
    const { page } = admin
    await page.locator('input[name=mcp_name]').fill('crm')
    await page.locator('input[name=mcp_url]').fill(protectedMcp.url)
    await page.locator('select[name=mcp_auth]').selectOption('oauth')
    await page.getByRole('button', { name: 'Add server' }).click()
    const server = page.locator('[data-mcp=crm]')
    await server.locator('[data-oauth-status=needs_authorization]').waitFor()

    await server.getByRole('button', { name: 'Test the connection' }).click()
    await server.locator('[data-mcp-failed]').waitFor()
    expect(await server.locator('[data-mcp-failed]').textContent()).toContain('unauthorized')

    // The authorization server approves at once and sends the window back to Parley's callback.
    const [popup] = await Promise.all([page.context().waitForEvent('page'), server.getByRole('button', { name: 'Authorize' }).click()])
    await popup.waitForURL((url) => url.pathname === '/oauth/mcp/callback')
    await popup.getByText('You can close this page').waitFor()
    expect(await popup.evaluate(() => window.opener)).toBeNull()
    await server.locator('[data-oauth-status=authorized]').waitFor()
    expect(as.counters.registrations).toBe(1)
    expect(as.counters.tokens.authorization_code).toBe(1)

    await server.getByRole('button', { name: 'Test the connection' }).click()
    // The failed test's line is replaced by this one's.
    await server.locator('[data-mcp-ok]').waitFor()
    expect(await server.locator('[data-mcp-failed]').count()).toBe(0)
    await server.locator('[data-tool=echo]').waitFor()
    const [record] = (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/integrations/mcp`)).items
    expect(record.config.auth.status).toBe('authorized')
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)
})
