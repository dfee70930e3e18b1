import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { Webhook } from 'standardwebhooks'
import { webhookReceiver, type WebhookReceiver } from '../outbox/support/webhook-receiver.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { consoleSuite } from './support/console-suite.ts'
import { waitUntil } from './support/widget-page.ts'

describe('the integrations screen of the console in Chromium, against the compiled binary', () => {
  const suite = consoleSuite({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  let receiver: WebhookReceiver
  beforeAll(() => {
    receiver = webhookReceiver()
  })
  afterAll(() => {
    receiver?.stop()
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
    // The reason once: the detail already says it, the field's error is not added again.
    expect(((await refusal.textContent()) ?? '').split('send api_key again').length - 1).toBe(1)
    expect(await stored()).toMatchObject({ base_url: 'https://api.openai.com/v1', api_key: '••••WXYZ' })

    // A private address: the outbound policy's reason, said once.
    await page.locator('input[name=llm_base_url]').fill('http://10.0.0.5/v1')
    await page.locator('input[name=llm_api_key]').fill('sk-private-00000000')
    await save()
    await waitUntil(async () => ((await refusal.textContent()) ?? '').includes('a private address'), 'the private address refused')
    expect(((await refusal.textContent()) ?? '').split('PARLEY_OUTBOUND_ALLOW').length - 1).toBe(1)

    await page.locator('input[name=llm_base_url]').fill('https://gateway.example.net/v1')
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
    // The form shows the default once the saved settings come back, a moment after the store has them.
    await waitUntil(async () => (await page.locator('input[name=llm_max_tokens]').inputValue()) === '1024', 'the default shown again')
    expect(await stored()).toMatchObject({ call_deadline_ms: 45_000 })
    // The two refused saves are the only failed loads the browser saw.
    expect(admin.errors().map((line) => line.includes('422'))).toEqual([true, true])
  }, E2E_TIMEOUT)
  // MCP servers (add, test, tools denied and ticked, Try it, edit, switch off, remove): test/journeys/console-tools.test.ts.
})
