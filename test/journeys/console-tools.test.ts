import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { expectAccessible, expectInViewport, JOURNEY_TIMEOUT, journey, screenshot, waitUntil } from './support/journey.ts'

/** The shop's order tools, as its MCP server describes them (annotations as MCP defines them). */
const SHOP_TOOLS: Tool[] = [
  {
    name: 'find_order',
    title: 'Find an order',
    description: 'Looks an order up by its number',
    inputSchema: {
      type: 'object',
      properties: {
        number: { type: 'string', description: 'the order number, A-1042' },
        carrier: { enum: ['post', 'courier'] },
        items: { type: 'integer', default: 1 },
        gift: { type: 'boolean' },
        notes: { type: 'array', items: { type: 'string' } },
      },
      required: ['number', 'carrier'],
    },
    annotations: { readOnlyHint: true },
  },
  { name: 'cancel_order', description: 'Cancels an order', inputSchema: { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] }, annotations: { destructiveHint: true } },
  { name: 'refund', description: 'Refunds an order', inputSchema: { type: 'object', properties: { number: { type: 'string' }, amount: { type: 'number' } }, required: ['number'] } },
]

/**
 * An admin's afternoon in the console: a tool server added, its risky tools kept out until
 * ticked (and the console saying why), a tool tried through the form its schema draws, the
 * server edited, switched off and on, removed; then the widget builder's preview, chatting
 * though the widget's allowed sites leave Parley's host out, saying why it cannot chat once
 * the widget is switched off, and asking before unsaved settings are left behind.
 */
describe('journey: the admin sets up tools and tries the widget in the console', () => {
  const day = journey({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  let tools: RunningMcpServer
  beforeAll(async () => {
    tools = await streamableServer({
      name: 'shop-tools',
      tools: SHOP_TOOLS,
      answer: (name, args) => ({ content: [{ type: 'text', text: name === 'find_order' ? `Order ${args.number}: 2 items, sent by ${args.carrier}${args.gift ? ' as a gift' : ''}, notes ${JSON.stringify(args.notes ?? [])}` : `${name} ${args.number}: done` }] }),
    })
  })
  afterAll(async () => {
    await tools?.stop()
  })

  test('MCP servers: tools denied until ticked and why, Try it by form, edit, switch off, remove; the preview chats and says why it cannot', async () => {
    const ada = await day.parley.person('Ada', 'admin')
    const { chatbotId, widgetKey } = await day.parley.webChat(
      { version: 1, start: 'welcome', states: { welcome: { say: [{ text: 'Hi! What are you looking for?' }], on: [{ to: 'human' }] }, human: { handoff: { text: 'A person will answer you here shortly.' } } } },
      'Shop bot',
      { allowed_domains: ['shop.test'] },
    )
    const api = (path: string) => `/api/dev/v1/chatbots/${chatbotId}/integrations${path}`
    const admin = await day.console(ada, 'desktop', `/app/console/bots/${chatbotId}/integrations`)
    const { page } = admin

    // A server added and tested: its tools listed, the risky ones denied, each saying why.
    await page.locator('input[name=mcp_name]').fill('orders')
    await page.locator('input[name=mcp_url]').fill(tools.url)
    await page.getByRole('button', { name: 'Add server' }).click()
    const server = page.locator('[data-mcp=orders]')
    await server.getByRole('button', { name: 'Test the connection' }).click()
    await expectInViewport(server.locator('[data-mcp-ok]'), 'the connection test line')
    expect(await server.locator('[data-mcp-ok]').textContent()).toContain('shop-tools 1.2.3')
    const row = (name: string) => server.locator(`[data-tool="${name}"]`)
    expect(await row('find_order').getAttribute('data-allowed')).toBe('true')
    for (const name of ['cancel_order', 'refund']) {
      expect(await row(name).getAttribute('data-allowed')).toBe('false')
      expect(await row(name).locator('input[type=checkbox]').isChecked()).toBe(false)
      await expectInViewport(row(name).locator('[data-denied-by=annotations]'), `why ${name} is denied`)
    }
    expect(await row('cancel_order').locator('.tool-denied').textContent()).toContain('does not mark it read-only or non-destructive')
    const [integration] = (await day.parley.must('GET', api('/mcp'))).items
    const callTool = (name: string, args: Record<string, unknown>) => day.parley.call('POST', api(`/mcp/${integration.id}/tools/${name}/call`), { arguments: args })
    expect((await callTool('cancel_order', { number: 'A-1042' })).status).toBe(403)
    await screenshot(page, 'console-tools-1-denied-tools')
    await expectAccessible(page, 'the MCP server with denied tools')

    // Try it: a form drawn from the tool's input schema; the array is typed as JSON.
    await row('find_order').getByRole('button', { name: 'Try it' }).click()
    const form = server.locator('[data-trying=find_order]')
    await expectInViewport(form.locator('#tool-arg-number'), 'the number field')
    expect(await form.locator('#tool-arg-items').inputValue()).toBe('1')
    expect(await form.locator('#tool-arg-carrier option').allTextContents()).toEqual(['choose one', 'post', 'courier'])
    await form.locator('#tool-arg-number').fill('A-1042')
    await form.locator('#tool-arg-carrier').selectOption('courier')
    await form.locator('#tool-arg-gift').selectOption('true')
    await form.locator('#tool-arg-notes').fill('["fragile"]')
    await form.getByRole('button', { name: 'Call find_order' }).click()
    await expectInViewport(form.locator('[data-tool-result]'), 'the tool result')
    expect(await form.locator('[data-tool-result]').textContent()).toContain('Order A-1042: 2 items, sent by courier as a gift, notes ["fragile"]')
    await screenshot(page, 'console-tools-2-try-it-form')
    await expectAccessible(page, 'the Try it form')

    // Ticked, the destructive tool is offered; the others keep their verdicts.
    await row('cancel_order').locator('input[type=checkbox]').check()
    await waitUntil(async () => (await row('cancel_order').getAttribute('data-allowed')) === 'true', 'cancel_order allowed')
    expect((await callTool('cancel_order', { number: 'A-1042' })).status).toBe(200)
    expect((await day.parley.must('GET', api(`/mcp/${integration.id}`))).config.tools.allow).toEqual(['find_order', 'cancel_order'])

    // Edited: a new name and a shorter tool call limit.
    await server.getByRole('button', { name: 'Edit' }).click()
    await page.locator('input[name=mcp_edit_name]').fill('shop')
    await page.locator('input[name=mcp_edit_timeout]').fill('5')
    await page.getByRole('button', { name: 'Save', exact: true }).click()
    const renamed = page.locator('[data-mcp=shop]')
    await expectInViewport(renamed.locator('strong', { hasText: 'shop' }), 'the new name')
    expect((await day.parley.must('GET', api(`/mcp/${integration.id}`))).config).toMatchObject({ timeout_ms: 5000, url: tools.url })

    // Switched off: calls are refused and the card says so; on again, they work.
    await renamed.getByRole('button', { name: 'Switch off' }).click()
    await expectInViewport(renamed.locator('.badge.off'), 'the switched-off badge')
    expect((await callTool('find_order', { number: 'A-1', carrier: 'post' })).status).toBe(409)
    await renamed.getByRole('button', { name: 'Switch on' }).click()
    await waitUntil(async () => (await renamed.getAttribute('data-active')) === 'true', 'switched on')
    expect((await callTool('find_order', { number: 'A-1', carrier: 'post' })).status).toBe(200)

    // Removed, after saying what goes with it.
    await renamed.getByRole('button', { name: 'Remove' }).click()
    const confirm = page.getByRole('dialog', { name: 'Remove the MCP server “shop”?' })
    await expectInViewport(confirm, 'the removal question')
    await expectAccessible(page, 'the removal dialog')
    await confirm.getByRole('button', { name: 'Remove it' }).click()
    await renamed.waitFor({ state: 'detached' })
    expect((await day.parley.must('GET', api('/mcp'))).items).toEqual([])

    // The widget builder: the preview chats for real, though the allowed sites are the shop's only.
    await page.getByRole('link', { name: 'Widget' }).click()
    const preview = page.frameLocator('iframe.preview-frame')
    await preview.locator('#parley-widget .launcher').waitFor()
    await page.locator('iframe.preview-frame').scrollIntoViewIfNeeded()
    await preview.locator('#parley-widget .launcher').click()
    await expectInViewport(preview.getByText('Hi! What are you looking for?'), "the bot's greeting in the preview")
    await preview.locator('#parley-widget textarea').fill('A blue kettle')
    await preview.locator('#parley-widget textarea').press('Enter')
    await expectInViewport(preview.getByText('A person will answer you here shortly.'), "the flow's answer in the preview")
    await expectInViewport(page.locator('iframe.preview-frame'), 'the preview')
    expect((await day.parley.must('GET', `/api/dev/v1/chatbots/${chatbotId}/conversations`)).total).toBe(1)
    await screenshot(page, 'console-tools-3-preview-chats')

    // Switched off elsewhere: the preview cannot chat, and the admin is told why, with the way back.
    await day.parley.must('PATCH', api('/web'), { is_active: false })
    await page.reload()
    const problem = page.locator('[data-preview-problem]')
    await expectInViewport(problem, 'why the preview cannot connect')
    expect(await problem.textContent()).toContain('The preview cannot connect: this chat is switched off.')
    await screenshot(page, 'console-tools-4-preview-says-why')
    await expectAccessible(page, "the preview's problem")
    await problem.getByRole('button', { name: 'Switch the widget on' }).click()
    await problem.waitFor({ state: 'detached' })
    await expectInViewport(preview.getByText('A person will answer you here shortly.'), 'the conversation again in the preview')

    // A pale primary colour: the builder warns that its focus ring and borders fall below AA, as it is typed; the default blue does not.
    const primary = page.locator('#field-primary_color')
    const stored = await primary.inputValue()
    expect(await page.locator('[data-contrast]').getAttribute('data-contrast')).toBe('ok')
    await primary.fill('#ffee00')
    const warning = page.locator('[data-contrast-warning]')
    await expectInViewport(warning, 'the contrast warning')
    expect(await warning.textContent()).toBe("The focus ring and borders in this colour have a contrast of 1.2:1 on the chat's background; WCAG AA asks for 3:1, so keyboard users may not see where they are.")
    expect(await page.locator('[data-contrast]').textContent()).toContain("Text on it: black, contrast 17.4:1; on the chat's background 1.2:1.")
    await expectAccessible(page, 'the widget builder warning about contrast')
    await screenshot(page, 'console-tools-4b-contrast-warning')
    await primary.fill(stored)
    await warning.waitFor({ state: 'detached' })

    // A setting typed and not saved: leaving for another screen asks first.
    await page.locator('#field-bubble_text').fill('Ask the shop')
    await page.getByRole('link', { name: 'Flows' }).click()
    const leave = page.getByRole('dialog', { name: 'Leave without saving?' })
    await expectInViewport(leave, 'the question before leaving')
    await screenshot(page, 'console-tools-5-leave-unsaved')
    await expectAccessible(page, 'the leave-unsaved dialog')
    await leave.getByRole('button', { name: 'Cancel' }).click()
    expect(new URL(page.url()).pathname).toBe(`/app/console/bots/${chatbotId}/widget`)
    expect(await page.locator('#field-bubble_text').inputValue()).toBe('Ask the shop')
    await page.getByRole('link', { name: 'Flows' }).click()
    await leave.getByRole('button', { name: 'Leave without saving' }).click()
    await waitUntil(() => new URL(page.url()).pathname.endsWith('/flows'), 'the flows screen', { seen: () => page.url() })

    // The console's other screens, each checked by axe once it has its data.
    const nav = page.locator('.console-nav')
    await nav.getByRole('link', { name: 'People' }).click()
    await page.locator('tr[data-user="ada@acme.test"]').waitFor()
    await expectAccessible(page, "the console's people")
    await nav.getByRole('link', { name: 'API keys' }).click()
    await page.locator('tr[data-prefix]').first().waitFor()
    await expectAccessible(page, "the console's API keys")
    await nav.getByRole('link', { name: 'Operations' }).click()
    await page.locator('[data-version]').waitFor()
    await waitUntil(async () => ((await page.locator('[data-logs]').textContent()) ?? '').trim() !== '', 'the log lines shown')
    await expectAccessible(page, "the console's operations")

    // Ada reads Spanish better: chosen in the top bar, each screen of the console speaks it at
    // once (no reload), and axe finds nothing on any of them.
    await page.getByRole('combobox', { name: 'Language' }).selectOption('es')
    await page.locator('main h1', { hasText: 'Operaciones' }).waitFor()
    const spanish: [string, string, string][] = [
      ['Personas', 'Personas', 'people'],
      ['Claves de API', 'Claves de API', 'keys'],
      ['Chatbots', 'Chatbots', 'chatbots'],
    ]
    for (const [link, heading, name] of spanish) {
      await nav.getByRole('link', { name: link, exact: true }).click()
      await expectInViewport(page.locator('main h1', { hasText: heading }), `${name} in Spanish`)
      await expectAccessible(page, `the console's ${name} in Spanish`)
    }
    for (const [path, heading, name] of [['integrations', 'Integraciones', 'integrations'], ['widget', 'Widget web', 'widget']]) {
      await page.goto(`${new URL(page.url()).origin}/app/console/bots/${chatbotId}/${path}`)
      await expectInViewport(page.locator('main h1', { hasText: heading }), `the ${name} screen in Spanish`)
      await screenshot(page, `console-tools-6-${name}-in-spanish`)
      await expectAccessible(page, `the chatbot's ${name} in Spanish`)
    }
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es')

    expect(admin.errors()).toEqual([])
  }, JOURNEY_TIMEOUT)
})
