import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { billingFlow } from '../autopilot/support/agent-chat.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { consoleSuite } from './support/console-suite.ts'
import type { Person } from './support/desk-bed.ts'
import { waitUntil } from './support/widget-page.ts'

describe('people and agent token usage in the console, in Chromium against the compiled binary', () => {
  const model = fakeChatCompletions(() => ({ text: 'Your invoice is on its way.', usage: { prompt_tokens: 1200, completion_tokens: 34 } }))
  const suite = consoleSuite({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  let sam: Person
  beforeAll(async () => {
    sam = await suite.bed.person('Sam', 'agent')
  })
  afterAll(() => model.stop())

  /** Accepts a one-time link as the desk's page does; the status code. */
  const accept = async (url: string, password: string) =>
    (
      await fetch(`${suite.bed.url}/api/dev/v1/auth/accept-invite`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: suite.bed.url },
        body: JSON.stringify({ token: new URL(url).hash.replace('#token=', ''), password }),
      })
    ).status
  const signIn = async (email: string, password: string) =>
    (
      await fetch(`${suite.bed.url}/api/dev/v1/auth/sign-in`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: suite.bed.url },
        body: JSON.stringify({ email, password }),
      })
    ).status
  const userNamed = async (email: string) =>
    (await suite.bed.must('GET', '/api/dev/v1/users?limit=200')).items.find((user: { email: string }) => user.email === email)

  test('people: invite with a link shown once, a role changed, an invite revoked, access removed, the last admin kept', async () => {
    const admin = await suite.consoleOf(suite.ada, '/app/console/people')
    const { page } = admin
    await page.locator('tr[data-user="ada@acme.test"]').waitFor()

    const invite = async (email: string, name: string, role: 'admin' | 'agent') => {
      await page.locator('input[name=invite_email]').fill(email)
      await page.locator('input[name=invite_name]').fill(name)
      await page.locator('select[name=invite_role]').selectOption(role)
      await page.getByRole('button', { name: 'Invite' }).click()
      await page.locator('[data-invite-link]').waitFor()
      const link = (await page.locator('[data-invite-link]').textContent())?.trim() as string
      await page.getByRole('button', { name: 'Done' }).click()
      await page.locator('[data-invite-link]').waitFor({ state: 'detached' })
      expect(await page.content()).not.toContain(link)
      return link
    }

    const kimLink = await invite('kim@acme.test', 'Kim', 'agent')
    expect(kimLink).toStartWith(`${suite.bed.url}/app/invite#token=`)
    const kim = page.locator('tr[data-user="kim@acme.test"]')
    expect(await kim.getAttribute('data-status')).toBe('invited')
    expect(await accept(kimLink, 'Kim-correct-horse-battery')).toBe(200)
    await page.reload()
    await waitUntil(async () => (await kim.getAttribute('data-status')) === 'active', 'Kim active')

    await kim.locator('select[name=role]').selectOption('admin')
    await waitUntil(async () => (await userNamed('kim@acme.test')).role === 'admin', 'Kim made admin')
    await kim.locator('select[name=role]').selectOption('agent')
    await waitUntil(async () => (await userNamed('kim@acme.test')).role === 'agent', 'Kim an agent again')

    // Ada is the only active admin: she cannot make herself an agent.
    await page.locator('tr[data-user="ada@acme.test"] select[name=role]').selectOption('agent')
    await page.locator('.form-error').waitFor()
    expect(await page.locator('.form-error').textContent()).toContain('last active admin')
    expect((await userNamed('ada@acme.test')).role).toBe('admin')
    await waitUntil(async () => (await page.locator('tr[data-user="ada@acme.test"] select[name=role]').inputValue()) === 'admin', 'the select back on admin')

    // An invite revoked: its link no longer works.
    const leeLink = await invite('lee@acme.test', 'Lee', 'admin')
    const lee = page.locator('tr[data-user="lee@acme.test"]')
    await lee.getByRole('button', { name: 'Revoke the invite' }).click()
    expect(await page.getByRole('dialog').textContent()).toContain('invite link stops working')
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke the invite' }).click()
    await waitUntil(async () => (await lee.getAttribute('data-status')) === 'disabled', 'the invite revoked')
    expect(await accept(leeLink, 'Lee-correct-horse-battery')).toBe(400)

    // Access removed: Kim can no longer sign in; given back, her password works again.
    expect(await signIn('kim@acme.test', 'Kim-correct-horse-battery')).toBe(200)
    await kim.getByRole('button', { name: 'Remove access' }).click()
    expect(await page.getByRole('dialog').textContent()).toContain('signed out everywhere')
    await page.getByRole('dialog').getByRole('button', { name: 'Remove access' }).click()
    await waitUntil(async () => (await kim.getAttribute('data-status')) === 'disabled', 'Kim disabled')
    expect(await signIn('kim@acme.test', 'Kim-correct-horse-battery')).toBe(401)
    await kim.getByRole('button', { name: 'Give access back' }).click()
    await waitUntil(async () => (await kim.getAttribute('data-status')) === 'active', 'Kim active again')
    expect(await signIn('kim@acme.test', 'Kim-correct-horse-battery')).toBe(200)
    // The browser reports the refused demotion (409 last_admin) as a failed load; nothing else went wrong.
    expect(admin.errors().filter((line) => !line.includes('409 (Conflict)'))).toEqual([])
  }, E2E_TIMEOUT)

  test('phone width: the people and the keys lists fit the screen', async () => {
    await suite.bed.must('POST', '/api/dev/v1/users', { email: 'a-rather-long-address-for-a-phone@acme.test', display_name: 'Maximiliane Longname-Example', role: 'agent' })
    const admin = await suite.consoleOf(suite.ada, '/app/console/people', { viewport: { width: 375, height: 740 }, isMobile: true })
    const { page } = admin
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    await page.locator('table.people tr[data-user]').first().waitFor()
    expect(await overflow()).toBeLessThanOrEqual(0)
    await page.goto(`${suite.bed.url}/app/console/keys`)
    await page.locator('table.keys').waitFor()
    expect(await overflow()).toBeLessThanOrEqual(0)
  }, E2E_TIMEOUT)

  test("an agent gets no console screen, asks for none of its data, and the server refuses the console's changes with 403", async () => {
    const chatbotId = await suite.bed.chatbot('Agent-proof bot')
    const agent = await suite.consoleOf(sam, '/app/console/people')
    const { page } = agent
    const loaded: string[] = []
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname))
    await page.locator('.refused').waitFor()
    for (const path of ['/app/console/people', `/app/console/bots/${chatbotId}/integrations`, `/app/console/bots/${chatbotId}`]) {
      await page.goto(`${suite.bed.url}${path}`)
      await page.locator('.refused').waitFor()
    }
    expect(await page.locator('table.people, section.chatapp, [data-agent-tokens]').count()).toBe(0)
    expect(loaded.filter((path) => path.startsWith('/api/dev/v1/') && path !== '/api/dev/v1/auth/me')).toEqual([])

    // The same requests the console's screens make, from the agent's signed-in page.
    const ada = await userNamed('ada@acme.test')
    const statuses = await page.evaluate(
      async ({ chatbotId, adaId }) => {
        const call = async (method: string, path: string, body?: unknown) =>
          (
            await fetch(`/api/dev/v1${path}`, {
              method,
              headers: body === undefined ? {} : { 'content-type': 'application/json' },
              body: body === undefined ? undefined : JSON.stringify(body),
            })
          ).status
        return {
          invite: await call('POST', '/users', { email: 'mallory@acme.test', display_name: 'Mallory', role: 'admin' }),
          promote: await call('PATCH', `/users/${adaId}`, { role: 'agent' }),
          link: await call('POST', `/users/${adaId}/invite-link`),
          chatapp: await call('POST', `/chatbots/${chatbotId}/integrations/chatapp`, { phone_number_id: '1', access_token: 'x', verify_token: 'y' }),
          mcp: await call('POST', `/chatbots/${chatbotId}/integrations/mcp`, { name: 'x', url: 'https://example.com/mcp' }),
          keys: await call('GET', '/api-keys'),
          operations: await call('GET', '/operations'),
        }
      },
      { chatbotId, adaId: ada.id },
    )
    expect(statuses).toEqual({ invite: 403, promote: 403, link: 403, chatapp: 403, mcp: 403, keys: 403, operations: 403 })
    expect(await userNamed('mallory@acme.test')).toBeUndefined()
    expect((await userNamed('ada@acme.test')).role).toBe('admin')
  }, E2E_TIMEOUT)

  test("the overview shows the chatbot's agent token usage of the last 30 days", async () => {
    const chatbotId = await suite.bed.chatbot('Billing bot', billingFlow(null))
    await suite.bed.must('PATCH', `/api/dev/v1/chatbots/${chatbotId}`, { llm: { base_url: model.baseUrl, api_key: 'sk-e2e', model: 'fake-1' } })
    await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api`, { name: 'Back office', webhook_url: 'http://127.0.0.1:9/hook' })
    for (const [user, text] of [['user-1', 'Where is my invoice?'], ['user-2', 'And mine?']]) {
      await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/rest-api/messages`, { user_id: user, text })
    }
    await waitUntil(async () => (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/usage`)).runs === 2, 'two agent runs finished')

    const admin = await suite.consoleOf(suite.ada, `/app/console/bots/${chatbotId}`)
    const { page } = admin
    await waitUntil(async () => (await page.locator('[data-agent-tokens]').textContent()) === '2,468', 'the total shown')
    expect(await page.locator('[data-agent-usage]').textContent()).toBe('2,400 prompt + 68 completion tokens in 2 LLM agent runs')
    const today = new Date().toISOString().slice(0, 10)
    expect(await page.locator(`.chart.tokens rect[data-date="${today}"]`).getAttribute('data-tokens')).toBe('2468')
    expect(await page.locator('.chart.tokens rect').count()).toBe(30)
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)
})
