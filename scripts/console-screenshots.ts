#!/usr/bin/env bun
/**
 * Remakes the screenshots of docs/console.md: the compiled dist/parley (run
 * `bun scripts/build.ts` first) with a demo workspace, each console screen in Chromium at
 * desktop width, and the lists and the overview at phone width. What lies outside the machine
 * is played by the tests' stand-ins on 127.0.0.1: a chat-completions model (token usage), the
 * messaging provider's API (the delivery log) and an OAuth-protected MCP server.
 */
import { billingFlow } from '../test/autopilot/support/agent-chat.ts'
import { type ChatappChat, text, userMessage } from '../test/channels/chatapp/support/chatapp-chat.ts'
import { fakeGraphApi } from '../test/channels/chatapp/support/fake-graph-api.ts'
import { fakeChatCompletions } from '../test/llm/support/fake-chat-completions.ts'
import { streamableServer } from '../test/mcp/support/mcp-servers.ts'
import { oauthServer } from '../test/mcp/support/oauth-server.ts'
import { launchBrowser } from '../test/e2e/support/browser.ts'
import { ConsolePage } from '../test/e2e/support/console-page.ts'
import { deskBed } from '../test/e2e/support/desk-bed.ts'
import { waitUntil } from '../test/e2e/support/widget-page.ts'

const docs = new URL('../docs/', import.meta.url).pathname
const FLOW = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: { say: [{ text: 'Hello! Sales or support?' }], on: [{ equals: 'sales', to: 'sales' }, { equals: 'support', to: 'human' }, { to: 'welcome' }] },
    sales: { say: [{ text: 'Our plans start at 9 €/month.' }], next: 'human' },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
  },
}

// A refund question meets a revoked key: the overview lists that failed run.
const model = fakeChatCompletions((body, index) => {
  if (body.tools?.some((tool) => tool.function.name === 'parley_connection_test')) return { text: 'OK' }
  if (String(body.messages.at(-1)?.content ?? '').includes('refund')) return { status: 401, body: { error: { message: 'Incorrect API key provided' } } }
  return { text: 'Your invoice is on its way.', usage: { prompt_tokens: 900 + 137 * (index % 5), completion_tokens: 40 + index } }
})
const graph = fakeGraphApi()
const authorizationServer = oauthServer()
const crm = await streamableServer({ oauth: { authorizationServer: authorizationServer.origin, acceptsToken: (token) => authorizationServer.acceptsToken(token) } })
const orders = await streamableServer({ name: 'orders', answer: () => ({ content: [{ type: 'text', text: 'hi' }] }) })
const [browser, bed] = await Promise.all([launchBrowser(), deskBed({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url })])
try {
  const ada = await bed.person('Ada', 'admin')
  await bed.person('Sam', 'agent')
  await bed.must('POST', '/api/dev/v1/users', { email: 'kim@acme.test', display_name: 'Kim', role: 'agent' })
  const leaver = await bed.must('POST', '/api/dev/v1/users', { email: 'lee@acme.test', display_name: 'Lee', role: 'admin' })
  await bed.must('PATCH', `/api/dev/v1/users/${leaver.user.id}`, { disabled: true })
  const chat = await bed.webChat(FLOW as never, 'Support')
  await bed.webChat(undefined, 'Sales')
  await bed.must('POST', '/api/dev/v1/api-keys', { name: 'Back office' })

  // The overview's token usage: an LLM agent state that answered a few conversations.
  await bed.must('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}`, { llm: { base_url: model.baseUrl, api_key: 'sk-demo', model: 'fake-1' } })
  const agentFlow = await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`, { name: 'Billing', type: 'conversation', flow: billingFlow(null) })
  await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/flows/${agentFlow.id}/publish`)
  await bed.must('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}`, { entry_flow_id: agentFlow.id })
  await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/rest-api`, { name: 'Back office', webhook_url: 'http://127.0.0.1:9/parley-webhook' })
  for (let n = 1; n <= 6; n++) {
    await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/rest-api/messages`, { user_id: `user-${n}`, text: 'Where is my invoice?' })
  }
  await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/rest-api/messages`, { user_id: 'user-7', text: 'Where is my refund?' })
  await waitUntil(async () => (await bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/usage`)).runs === 7, 'the agent runs')
  await bed.must('PATCH', `/api/dev/v1/chatbots/${chat.chatbotId}`, { entry_flow_id: (await bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`)).items.find((f: { name: string }) => f.name !== 'Billing').id })

  // The messaging-app channel: verified by the provider, one answer accepted.
  const phoneNumberId = '106540352242922'
  graph.register(phoneNumberId, 'EAAG-demo-access-token-ZD9x')
  const chatapp = await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/chatapp`, { phone_number_id: phoneNumberId, access_token: 'EAAG-demo-access-token-ZD9x', verify_token: 'my-verify-token' })
  await fetch(`${chatapp.config.callback_url}?hub.mode=subscribe&hub.verify_token=my-verify-token&hub.challenge=1158201444`)
  await fetch(chatapp.config.callback_url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(userMessage({ phoneNumberId } as ChatappChat, '447911123456', text('sales'))) })
  await waitUntil(async () => (await bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/chatapp/deliveries?status=accepted`)).total >= 1, 'a delivery accepted')

  // An OAuth-protected MCP server not authorized yet, and one whose tools are listed (a destructive one denied).
  await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/mcp`, { name: 'crm', url: crm.url, auth: { type: 'oauth' } })
  await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/integrations/mcp`, { name: 'orders', url: orders.url })
  const emptyFlow = await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`, { name: 'New flow', type: 'conversation', flow: {} })
  // A working copy with a mistake in it, to show how the editor and the canvas mark one.
  const draft = { ...FLOW, states: { ...FLOW.states, old_menu: { say: [{ text: 'Nobody comes here any more.' }] } } }
  const flowId = (await bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`, { name: 'Sales and support', type: 'conversation', flow: draft })).id as string
  const shots: [string, string, (page: ConsolePage) => Promise<void>][] = [
    ['console-chatbots', '/app/console', async (c) => void (await c.page.locator('table.chatbots').waitFor())],
    ['console-overview', `/app/console/bots/${chat.chatbotId}`, async (c) => {
      await c.page.locator('.chart.tokens rect').first().waitFor({ state: 'attached' })
      await c.page.locator('[data-agent-failure]').first().waitFor()
    }],
    ['console-widget', `/app/console/bots/${chat.chatbotId}/widget`, async (c) => {
      await c.page.frameLocator('iframe.preview-frame').locator('#parley-widget .launcher').waitFor()
      await c.page.locator('#field-primary_color').fill('#0a7d3b')
      await c.page.waitForTimeout(1200)
    }],
    ['console-flow-editor', `/app/console/bots/${chat.chatbotId}/flows/${flowId}`, async (c) => {
      await c.page.locator('[data-builder][data-ready]').waitFor()
      await waitUntil(async () => (await c.page.locator('[data-save-state]').textContent()) === 'saved', 'saved')
      await c.page.locator('[data-issue]').first().waitFor()
      await c.page.locator('[data-state=welcome] .node-head').click()
      await c.page.locator('[data-panel-state=welcome]').waitFor()
    }],
    ['console-flow-json', `/app/console/bots/${chat.chatbotId}/flows/${flowId}`, async (c) => {
      await c.page.locator('[data-builder][data-ready]').waitFor()
      await c.page.locator('[data-tab=json]').click()
      await c.page.locator('.editor-host .cm-content').waitFor()
      await c.page.locator('[data-state=old_menu]').waitFor({ state: 'attached' })
      await c.page.waitForTimeout(800)
    }],
    ['console-flow-templates', `/app/console/bots/${chat.chatbotId}/flows/${emptyFlow.id}`, async (c) => void (await c.page.locator('[data-templates]').waitFor())],
    ['console-flow-agent-test', `/app/console/bots/${chat.chatbotId}/flows/${agentFlow.id}`, async (c) => {
      await c.page.locator('[data-builder][data-ready]').waitFor()
      await c.page.locator('[data-side=try]').click()
      await c.page.getByRole('button', { name: 'Start a test chat' }).click()
      await waitUntil(async () => !(await c.page.locator('input[name=test_text]').isDisabled()), 'the test chat started')
      await c.page.locator('input[name=test_text]').fill('Where is my invoice?')
      await c.page.locator('.test-chat').getByRole('button', { name: 'Send' }).click()
      await waitUntil(async () => ((await c.page.locator('[data-test-chat]').textContent()) ?? '').includes('test run'), 'the agent answered, as a test')
    }],
    ['console-flow-insights', `/app/console/bots/${chat.chatbotId}/flows/${agentFlow.id}`, async (c) => {
      await c.page.locator('[data-builder][data-ready]').waitFor()
      await c.page.getByLabel('Show what conversations did').selectOption('1')
      await c.page.locator('[data-insights-summary]').waitFor()
      await c.page.locator('[data-state=billing] [data-insight]').waitFor()
    }],
    ['console-integrations', `/app/console/bots/${chat.chatbotId}/integrations`, async (c) => {
      await c.page.locator('.llm').waitFor()
      await c.page.locator('[data-handshake=verified]').waitFor()
      await c.page.locator('tr[data-chatapp-delivery]').first().waitFor()
      await c.page.locator('[data-oauth-status]').waitFor()
      await c.page.locator('[data-mcp=orders]').getByRole('button', { name: 'Test the connection' }).click()
      await c.page.locator('[data-mcp=orders] [data-denied-by=annotations]').waitFor()
      await c.page.getByRole('button', { name: 'Test the model' }).click()
      await c.page.locator('[data-model-ok]').waitFor()
    }],
    ['console-people', '/app/console/people', async (c) => void (await c.page.locator('table.people').waitFor())],
    ['console-keys', '/app/console/keys', async (c) => void (await c.page.locator('table.keys').waitFor())],
    ['console-operations', '/app/console/operations', async (c) => {
      await c.page.locator('[data-version]').waitFor()
      await c.page.waitForTimeout(300)
    }],
  ]
  // One sign-in per width: the sign-in route's per-address limit would refuse one per screenshot.
  const desktop = await ConsolePage.open(browser, bed.url, { viewport: { width: 1360, height: 900 } })
  await desktop.signIn(ada)
  for (const [name, path, ready] of shots) {
    await desktop.goto(path)
    await ready(desktop)
    await desktop.page.screenshot({ path: `${docs}${name}.png`, fullPage: true })
    console.log(`docs/${name}.png`)
  }
  await desktop.close()
  const phoneShots = [
    ['console-phone-chatbots', '/app/console', 'table.chatbots'],
    ['console-phone-overview', `/app/console/bots/${chat.chatbotId}`, '.chart.tokens'],
    ['console-phone-people', '/app/console/people', 'table.people'],
    ['console-phone-keys', '/app/console/keys', 'table.keys'],
  ] as const
  const phone = await ConsolePage.open(browser, bed.url, { viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 1 })
  await phone.signIn(ada)
  for (const [name, path, selector] of phoneShots) {
    await phone.goto(path)
    await phone.page.locator(selector).first().waitFor()
    const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    if (overflow > 0) console.warn(`${path} is ${overflow} px wider than the phone`)
    await phone.page.screenshot({ path: `${docs}${name}.png`, fullPage: true })
    console.log(`docs/${name}.png`)
  }
  await phone.close()
  // The flow builder on a tablet held sideways, by touch: a state tapped, its form beside the canvas.
  const tablet = await ConsolePage.open(browser, bed.url, { viewport: { width: 1024, height: 768 }, hasTouch: true, deviceScaleFactor: 1 })
  await tablet.signIn(ada)
  await tablet.goto(`/app/console/bots/${chat.chatbotId}/flows/${flowId}`)
  await tablet.page.locator('[data-builder][data-ready]').waitFor()
  await tablet.page.locator('[data-canvas]').scrollIntoViewIfNeeded()
  await tablet.page.locator('[data-state=sales] .node-head').tap()
  await tablet.page.locator('[data-panel-state=sales]').waitFor()
  await tablet.page.screenshot({ path: `${docs}console-flow-tablet.png` })
  console.log('docs/console-flow-tablet.png')
  await tablet.close()
} finally {
  await browser.close()
  await bed.close()
  model.stop()
  graph.stop()
  await crm.stop()
  await orders.stop()
  authorizationServer.stop()
}
