import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { webhookReceiver, type WebhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { consoleSuite } from './support/console-suite.ts'
import { waitUntil } from './support/widget-page.ts'

describe('the integrations screen of the console in Chromium, against the compiled binary', () => {
  const suite = consoleSuite({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  let receiver: WebhookReceiver
  let mcp: RunningMcpServer
  beforeAll(async () => {
    receiver = webhookReceiver()
    mcp = await streamableServer()
  })
  afterAll(async () => {
    receiver?.stop()
    await mcp?.stop()
  })
  const consoleAt = (path: string) => suite.consoleOf(suite.ada, path)

  test('rest-api: the secret shown once, rotated; a failed delivery redelivered to the new URL, signed with the new secret', async () => {
    const chatbotId = await suite.bed.chatbot('Webhook bot')
    const admin = await consoleAt(`/app/console/bots/${chatbotId}/integrations`)
    const { page } = admin
    await page.locator('input[name=webhook_url]').fill(receiver.url)
    await page.getByRole('button', { name: 'Add the REST API channel' }).click()
    const first = (await page.locator('[data-signing-secret]').textContent())?.trim() as string
    expect(first).toMatch(/^whsec_/)
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.content()).not.toContain(first)

    // The receiver fails the first attempt; switched off while it waits to retry, the delivery fails for good.
    receiver.respond(500)
    await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/messages`, { user_id: 'user-1', text: 'hello' })
    await waitUntil(async () => receiver.received.length === 1, 'the first attempt')
    await suite.bed.must('PATCH', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api`, { is_active: false })
    await suite.bed.must('PATCH', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api`, { is_active: true })
    const failed = page.locator('tr[data-status=failed]')
    await waitUntil(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      return (await failed.count()) === 1
    }, 'the failed delivery listed')

    const moved = `${receiver.url}-moved`
    await page.locator('input[name=new_webhook_url]').fill(moved)
    await page.getByRole('button', { name: 'Change URL' }).click()
    await waitUntil(async () => (await page.locator('[data-webhook-url]').textContent()) === moved, 'the new URL shown')
    await page.getByRole('button', { name: 'Rotate the signing secret' }).click()
    const rotated = (await page.locator('[data-signing-secret]').textContent())?.trim() as string
    expect(rotated).toMatch(/^whsec_/)
    expect(rotated).not.toBe(first)

    const deliveryId = (await failed.getAttribute('data-delivery')) as string
    await failed.getByRole('button', { name: 'Redeliver' }).click()
    await waitUntil(async () => receiver.received.length === 2, 'the redelivery at the receiver')
    const got = receiver.received[1] as (typeof receiver.received)[number]
    expect(got.json).toEqual(receiver.received[0]?.json)
    expect(got.headers['webhook-id']).toBe(deliveryId)
    expect(new Webhook(rotated).verify(got.body, got.headers)).toEqual(got.json)
    expect(() => new Webhook(first).verify(got.body, got.headers)).toThrow()
    await waitUntil(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      return (await page.locator(`tr[data-delivery="${deliveryId}"]`).getAttribute('data-status')) === 'delivered'
    }, 'the delivery shown delivered')
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('llm: the key shown masked once saved; another base URL without the key is refused with the reason and changes nothing; with a key it is saved', async () => {
    const chatbotId = await suite.bed.chatbot('Model bot')
    const admin = await consoleAt(`/app/console/bots/${chatbotId}/integrations`)
    const { page } = admin
    const stored = async () => (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}`)).llm
    const save = () => page.getByRole('button', { name: 'Save the LLM settings' }).click()
    const keyHint = page.locator('section.llm .limit', { hasText: 'write-only' })
    await page.locator('input[name=llm_base_url]').fill('https://api.openai.com/v1')
    await page.locator('input[name=llm_model]').fill('gpt-4o-mini')
    await page.locator('input[name=llm_api_key]').fill('sk-e2e-0123456789WXYZ')
    await save()
    await waitUntil(async () => ((await keyHint.textContent()) ?? '').includes('set (••••WXYZ)'), 'the key shown masked')
    expect(await page.locator('input[name=llm_api_key]').inputValue()).toBe('')
    expect(await page.content()).not.toContain('sk-e2e-0123456789WXYZ')

    // The stored key would go to whoever runs the new URL: the console says to send it again.
    await page.locator('input[name=llm_base_url]').fill('https://gateway.example.net/v1')
    await save()
    const refusal = page.locator('section.llm [role=alert]')
    await refusal.waitFor({ state: 'visible' })
    expect(await refusal.textContent()).toContain('send api_key again')
    expect(await stored()).toMatchObject({ base_url: 'https://api.openai.com/v1', api_key: '••••WXYZ' })

    await page.locator('input[name=llm_api_key]').fill('sk-gateway-abcdefghMNOP')
    await save()
    await waitUntil(async () => ((await keyHint.textContent()) ?? '').includes('set (••••MNOP)'), 'the new key shown masked')
    expect(await stored()).toMatchObject({ base_url: 'https://gateway.example.net/v1', model: 'gpt-4o-mini', api_key: '••••MNOP' })

    // The limits: shown with their defaults, set in tokens and seconds, emptied back to the defaults.
    expect(await page.locator('input[name=llm_max_tokens]').inputValue()).toBe('1024')
    expect(await page.locator('input[name=llm_run_deadline]').inputValue()).toBe('300')
    await page.locator('input[name=llm_max_tokens]').fill('400')
    await page.locator('input[name=llm_call_deadline]').fill('45')
    await page.locator('input[name=llm_run_deadline]').fill('90')
    await save()
    await waitUntil(async () => (await stored()).run_deadline_ms === 90_000, 'the limits saved')
    expect(await stored()).toMatchObject({ max_tokens: 400, call_deadline_ms: 45_000, run_deadline_ms: 90_000, api_key: '••••MNOP' })
    await page.locator('input[name=llm_max_tokens]').fill('')
    await save()
    await waitUntil(async () => (await stored()).max_tokens === 1024, 'max_tokens back to its default')
    expect(await page.locator('input[name=llm_max_tokens]').inputValue()).toBe('1024')
    expect(await stored()).toMatchObject({ call_deadline_ms: 45_000 })
    // The refused save is the only failed load the browser saw.
    expect(admin.errors().map((line) => line.includes('422'))).toEqual([true])
  }, E2E_TIMEOUT)

  test('mcp: add a server, test it and see its tools, untick one so it is no longer allowed, try a tool', async () => {
    const chatbotId = await suite.bed.chatbot('Tool bot')
    const admin = await consoleAt(`/app/console/bots/${chatbotId}/integrations`)
    const { page } = admin
    await page.locator('input[name=mcp_name]').fill('orders')
    await page.locator('input[name=mcp_url]').fill(mcp.url)
    await page.getByRole('button', { name: 'Add server' }).click()
    const server = page.locator('[data-mcp=orders]')
    await server.getByRole('button', { name: 'Test the connection' }).click()
    await server.locator('[data-mcp-ok]').waitFor()
    expect(await server.locator('[data-mcp-ok]').textContent()).toContain('parley-test-tools 1.2.3')
    await server.locator('[data-tool=echo]').waitFor()
    const toolNames = await server.locator('[data-tool]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tool')))
    expect(toolNames).toContain('add')

    await server.locator('[data-tool=add] input[type=checkbox]').uncheck()
    const [integration] = (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/integrations/mcp`)).items
    await waitUntil(async () => {
      const current = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/integrations/mcp/${integration.id}`)
      return Array.isArray(current.config.tools.allow) && !current.config.tools.allow.includes('add') && current.config.tools.allow.includes('echo')
    }, 'add no longer allowed')
    const refused = await suite.bed.call('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/mcp/${integration.id}/tools/add/call`, { arguments: { a: 1, b: 2 } })
    expect(refused.status).toBe(403)

    await server.locator('[data-tool=echo]').getByRole('button', { name: 'Try it' }).click()
    await server.locator('textarea[name=tool_arguments]').fill('{"text": "hi from the console"}')
    await server.getByRole('button', { name: 'Call echo' }).click()
    await server.locator('[data-tool-result]').waitFor()
    expect(await server.locator('[data-tool-result]').textContent()).toContain('hi from the console')
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)
})
