import { afterAll, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { fakeChatCompletions, type ScriptedReply } from '../llm/support/fake-chat-completions.ts'
import { expectAccessible, expectInViewport, JOURNEY_TIMEOUT, journey, screenshot, waitUntil } from './support/journey.ts'

const KEY = 'sk-kettle-live-0123456789QRST'

/** The shop's assistant: an LLM agent state that hands over when asked, as a team would write it. */
const KETTLE_FLOW: ConversationFlow = {
  version: 1,
  start: 'assistant',
  states: {
    assistant: {
      agent: {
        instructions: 'You answer questions about the kettles we sell. Be short.',
        exits: [{ when: 'the visitor asks for a person', to: 'human' }],
      },
    },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
  },
} as ConversationFlow

/**
 * The model day, in Chromium against the compiled binary, with the model played by an
 * OpenAI-compatible server on 127.0.0.1 (the only fake: it stands for the provider): the admin
 * tests the model settings before saving them and is told the key is missing, then that the
 * model answers; the agent state is tried in the flow builder's draft chat (a test run); a visitor on a phone talks to the agent state; the provider revokes the key,
 * the next run fails, and the team sees why where they work: the agent on the desk's timeline
 * and context panel, the admin on the chatbot's overview, and then on the flow's canvas: the agent state's runs,
 * the exit a second visitor's run took, the handoff and the failure.
 */
describe('journey: a model tested, used, and failing in front of the team', () => {
  const day = journey({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1' })
  let revoked = false
  const provider = fakeChatCompletions((body): ScriptedReply => {
    const key = provider.requests.at(-1)?.headers.get('authorization')
    if (key !== `Bearer ${KEY}` || revoked) return { status: 401, body: { error: { message: `Incorrect API key provided: ${key ?? 'none'}`, code: 'invalid_api_key' } } }
    // The settings test offers one tool and asks for OK; the agent state's runs are the visitor's.
    if (body.tools?.some((tool) => tool.function.name === 'parley_connection_test')) return { text: 'OK', usage: { prompt_tokens: 40, completion_tokens: 1 } }
    if (body.messages.at(-1)?.content === 'Can I talk to a person?') return { toolCalls: [{ name: 'exit_human', arguments: '{}' }], usage: { prompt_tokens: 110, completion_tokens: 5 } }
    return { text: 'Yes: the blue kettle is in stock and ships tomorrow.', usage: { prompt_tokens: 120, completion_tokens: 12 } }
  })
  afterAll(() => provider.stop())

  test('the model test, an agent state answering, a failing model seen on the desk and the console', async () => {
    const { parley } = day
    const ada = await parley.person('Ada', 'admin')
    const sam = await parley.person('Sam', 'agent')
    const { chatbotId, widgetKey } = await parley.webChat(KETTLE_FLOW, 'Kettle bot', { widget_config: { bot_display_name: 'Kettle bot' } })

    // The admin types the model settings and tests them before saving: no key yet.
    const admin = await day.console(ada, 'desktop', `/app/console/bots/${chatbotId}/integrations`)
    const { page } = admin
    await page.locator('input[name=llm_base_url]').fill(provider.baseUrl)
    await page.locator('input[name=llm_model]').fill('kettle-1')
    await page.getByRole('button', { name: 'Test the model' }).click()
    const refused = page.locator('[data-model-failed]')
    await expectInViewport(refused, 'the failed test')
    expect(await refused.getAttribute('data-model-failed')).toBe('unauthorized')
    expect(await refused.textContent()).toBe("Key refused: the provider refused Parley's credentials (HTTP 401): no API key is set; most hosted providers need one")
    expect((await parley.must('GET', `/api/dev/v1/chatbots/${chatbotId}`)).llm).toBeNull()
    await screenshot(page, 'model-day-1-test-says-no-key')
    await expectAccessible(page, "the integrations' failed model test")

    // With the key typed, the test answers; saved, the key is shown masked only.
    await page.locator('input[name=llm_api_key]').fill(KEY)
    await page.getByRole('button', { name: 'Test the model' }).click()
    const answered = page.locator('[data-model-ok]')
    await expectInViewport(answered, 'the passed test')
    expect(await answered.textContent()).toMatch(/^kettle-1 answered in \d+ ms: “OK”\. Agent states can use it\.$/)
    await page.getByRole('button', { name: 'Save the LLM settings' }).click()
    await waitUntil(async () => ((await page.locator('section.llm .limit', { hasText: 'write-only' }).textContent()) ?? '').includes('set (••••QRST)'), 'the key shown masked')
    expect(await page.content()).not.toContain(KEY)
    await screenshot(page, 'model-day-2-test-answers')

    // The agent state tried in the flow builder's draft chat: the real model answers, marked as a test, nothing stored.
    const flowId = (await parley.must('GET', `/api/dev/v1/chatbots/${chatbotId}/flows`)).items[0].id as string
    const calls = provider.requests.length
    await admin.goto(`/app/console/bots/${chatbotId}/flows/${flowId}`)
    await page.locator('[data-builder][data-ready]').waitFor()
    await page.locator('[data-side=try]').click()
    await page.getByRole('button', { name: 'Start a test chat' }).click()
    await page.locator('input[name=test_text]').fill('Is the blue kettle in stock?')
    await page.locator('.test-chat').getByRole('button', { name: 'Send' }).click()
    const tried = page.locator('[data-test-chat] .agent')
    await expectInViewport(tried, "the agent state's answer in the draft chat")
    expect(await tried.textContent()).toBe('Yes: the blue kettle is in stock and ships tomorrow.')
    const marked = page.locator('[data-test-chat] .event', { hasText: 'LLM agent' })
    await expectInViewport(marked, 'the run marked as a test')
    expect(await marked.textContent()).toBe('LLM agent "assistant" answered (kettle-1, test run, 132 tokens)')
    expect(provider.requests.length).toBe(calls + 1)
    expect(provider.requests.at(-1)!.body.messages.at(-1)).toEqual({ role: 'user', content: 'Is the blue kettle in stock?' })
    expect((await parley.must('GET', `/api/dev/v1/chatbots/${chatbotId}/usage`)).runs).toBe(0)
    await screenshot(page, 'model-day-3-draft-chat')
    await expectAccessible(page, "the flow builder's draft chat")

    // A visitor on a phone talks to the agent state.
    const visitor = await day.visitor(widgetKey, 'phone', '/kettles')
    await visitor.openChat()
    await visitor.sendText('Do you have the blue kettle?')
    await visitor.shownText('Yes: the blue kettle is in stock and ships tomorrow.', 'bot')
    await expectInViewport(visitor.page.locator('#parley-widget .log .msg.bot').last(), "the agent state's answer on the phone")

    // The provider revokes the key: the next run fails, the visitor is told a person takes over.
    revoked = true
    await visitor.sendText('Can I pay by invoice?')
    await visitor.shownText('Sorry, I cannot answer that right now. A person will take over here.', 'bot')
    await expectInViewport(visitor.page.locator('#parley-widget .log .msg.bot').last(), 'the apology on the phone')
    await screenshot(visitor.page, 'model-day-4-visitor-handed-over')

    // The agent sees why on the desk: on the timeline, before the handoff, and in the context panel.
    const desk = await day.desk(sam, 'desktop')
    const [handedOff] = (await parley.must('GET', '/api/dev/v1/desk/conversations?view=waiting')).items as { id: string }[]
    await desk.rowsWhen((rows) => rows.some((row) => row.id === handedOff?.id), 'the handed-off conversation listed')
    await desk.openConversation(handedOff!.id)
    const failed = desk.page.locator('.message.event[data-event-kind=agent_failed]')
    await expectInViewport(failed, "the failed run on the timeline")
    expect(await failed.locator('span').textContent()).toBe(
      "The bot's model failed at state “assistant”: the provider refused Parley's credentials (HTTP 401): check the API key and what it may use",
    )
    const order = await desk.page.locator('.message.event').evaluateAll((events) => events.map((event) => (event as HTMLElement).dataset.eventKind))
    expect(order).toEqual(['agent_failed', 'handed_off'])
    const why = desk.page.locator('[data-field=agent-failure]')
    await desk.page.locator('.context-toggle').click()
    await expectInViewport(why, 'the failure in the context panel')
    expect(await why.textContent()).toContain("at state “assistant”: the provider refused Parley's credentials (HTTP 401)")
    expect(await desk.page.content()).not.toContain(KEY)
    await screenshot(desk.page, 'model-day-5-desk-sees-why')
    await expectAccessible(desk.page, 'a failed run on the desk')

    // The admin sees it on the chatbot's overview, with the way to the conversation.
    await admin.goto(`/app/console/bots/${chatbotId}`)
    const failures = page.locator('section.agent-failures')
    await failures.scrollIntoViewIfNeeded()
    await expectInViewport(failures.locator('[data-agent-failures]'), 'the failed runs count')
    expect(await failures.locator('[data-agent-failures]').textContent()).toBe('1')
    const listed = failures.locator('[data-agent-failure=unauthorized]')
    await expectInViewport(listed, 'the failed run listed')
    expect(await listed.textContent()).toContain("unauthorized: the provider refused Parley's credentials (HTTP 401)")
    await screenshot(page, 'model-day-6-console-overview')
    await expectAccessible(page, "the overview's failed runs")
    await listed.getByRole('link', { name: 'the conversation' }).click()
    await waitUntil(() => new URL(page.url()).pathname === `/app/c/${handedOff!.id}`, 'the conversation on the desk')

    // The provider takes the key back; a visitor on a laptop asks for a person and the model takes the agent's exit.
    revoked = false
    const laptop = await day.visitor(widgetKey, 'desktop', '/kettles')
    await laptop.openChat()
    await laptop.sendText('Can I talk to a person?')
    await laptop.shownText('A person will answer you here shortly.', 'bot')

    // What the agent state did, on the flow's canvas: its runs, the exit taken, the handoff and the failure.
    await admin.goto(`/app/console/bots/${chatbotId}/flows/${flowId}`)
    await page.locator('[data-builder][data-ready]').waitFor()
    await page.getByLabel('Show what conversations did').selectOption('1')
    const assistant = page.locator('[data-state=assistant] [data-insight]')
    await expectInViewport(assistant, "the agent state's counts on the canvas")
    await waitUntil(async () => ((await assistant.textContent()) ?? '').startsWith('2 in'), 'both conversations counted at the agent state')
    expect(await assistant.textContent()).toBe('2 in · 1 stopped (50%) · 1 to a person · 1 failed')
    expect(await page.locator('[data-state=human] [data-insight]').textContent()).toBe('1 in · 1 stopped (100%) · 1 to a person')
    const exitTaken = page.locator('[data-edge="assistant|agent/exits/0"] .edge-count')
    expect(await exitTaken.textContent()).toBe('1')
    expect(await page.locator('[data-insights-summary]').textContent()).toBe('version 1: 2 conversations started')
    await screenshot(page, 'model-day-7-agent-on-the-canvas')

    expect(admin.errors()).toEqual([])
    expect(desk.watched.console.filter((line) => line.startsWith('pageerror'))).toEqual([])
  }, JOURNEY_TIMEOUT)
})
