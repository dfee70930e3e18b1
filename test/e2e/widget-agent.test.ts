import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import type { ChatRequestBody } from '../../server/llm/wire-format.ts'
import { fakeChatCompletions, type ScriptedReply } from '../llm/support/fake-chat-completions.ts'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'
import { E2E_TIMEOUT, launchBrowser } from './support/browser.ts'
import { embedPage, type HostPages, startHostPages } from './support/host-pages.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

/**
 * A visitor talks to an LLM agent state through the widget in Chromium, against the compiled
 * binary: the fake model (real SSE wire format) first asks for two tools of a real SDK MCP
 * server, then streams its answer, which the visitor sees grow; a second message makes the
 * model take the flow's exit to a person.
 */
const ANSWER =
  'The sum is 42. ' +
  'Here is how I got there, step by step, so you can check it yourself: I asked the billing tools to add 2 and 40, ' +
  'and they answered 42. Markup such as <b>this</b> or <img src=x onerror=alert(1)> stays plain text. ' +
  'Anything else I can do for you today? I can look up invoices, explain charges, or pass you to a person.'

describe('an LLM agent state answers through the widget (compiled binary, Chromium)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-agent-e2e-'))
  let browser: Browser
  let host: HostPages
  let tools: RunningMcpServer
  let model: ReturnType<typeof fakeChatCompletions>
  let parley: RunningParley
  let api: (method: string, path: string, body?: unknown) => Promise<any>
  const opened: WidgetPage[] = []

  /** The model's side of the conversation, by what it was sent. */
  function script(body: ChatRequestBody): ScriptedReply {
    const last = body.messages.at(-1) as { role: string; content?: unknown }
    const said = typeof last.content === 'string' ? last.content : ''
    if (last.role === 'user' && said.includes('2 + 40')) {
      return {
        toolCalls: [
          { name: 'billing__add', arguments: JSON.stringify({ a: 2, b: 40 }) },
          // Long enough for the typing indicator to be seen while the tools run.
          { name: 'billing__slow', arguments: JSON.stringify({ ms: 1500 }) },
        ],
      }
    }
    // One character a chunk: the stream lasts several of the relay's 50 ms windows.
    if (last.role === 'tool') return { text: ANSWER, fragment: 1 }
    if (last.role === 'user' && said.includes('person')) return { toolCalls: [{ name: 'exit_human', arguments: '{}' }] }
    return { text: 'I did not expect that.' }
  }

  beforeAll(async () => {
    const binary = compiledParley()
    ;[browser, tools] = await Promise.all([launchBrowser(), streamableServer()])
    host = startHostPages()
    model = fakeChatCompletions(script)
    parley = await runParley([binary], { PARLEY_DATA_DIR: dataDir, PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_SOCKET_RATE_LIMIT: '0' })
    const created = Bun.spawnSync([binary, 'keys', 'create', '--name', 'agent-e2e'], { env: { ...process.env, PARLEY_DATA_DIR: dataDir } })
    const key = created.stdout.toString().trim()
    api = async (method, path, body) => {
      const response = await fetch(`${parley.url}/api/dev/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${text}`)
      return text ? JSON.parse(text) : undefined
    }
  }, 120_000)

  afterAll(async () => {
    for (const page of opened) await page.close()
    await browser?.close()
    await host?.stop()
    await parley?.stop('SIGTERM')
    await tools?.stop()
    model?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  })

  test('the answer streams into a draft bubble after the tools ran, becomes the stored message, and an exit hands off', async () => {
    const bot = await api('POST', '/chatbots', { name: 'Billing' })
    await api('PATCH', `/chatbots/${bot.id}`, { llm: { base_url: model.baseUrl, api_key: 'sk-e2e', model: 'fake-1' } })
    const mcp = await api('POST', `/chatbots/${bot.id}/integrations/mcp`, { name: 'billing', url: tools.url })
    const flow = await api('POST', `/chatbots/${bot.id}/flows`, {
      name: 'Main',
      type: 'conversation',
      flow: {
        version: 1,
        start: 'billing',
        states: {
          billing: {
            agent: {
              instructions: 'Answer billing questions.',
              tools: [{ integration_id: mcp.id, allow: ['add', 'slow'] }],
              exits: [{ when: 'the visitor wants a person', to: 'human' }],
            },
          },
          human: { handoff: { text: 'A person will take over.' } },
        },
      },
    })
    await api('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)
    const web = await api('POST', `/chatbots/${bot.id}/integrations/web`, { name: 'Site' })
    host.page(`/${bot.id}`, embedPage({ serverUrl: parley.url, widgetKey: web.config.widget_key }))

    // A Spanish browser: the model is told the visitor's language (issue 31), the widget speaks Spanish.
    const visitor = await WidgetPage.open(browser, { locale: 'es-ES' })
    opened.push(visitor)
    await visitor.goto(host.url('shop.test', `/${bot.id}`))
    await visitor.connected()
    await visitor.openChat()
    // Every change of the widget's DOM, as the visitor would have seen it: the draft's text
    // (and whether screen readers could read it), the bot's typing dots, every bot bubble.
    await visitor.page.evaluate(() => {
      const root = document.querySelector('#parley-widget')!.shadowRoot!
      const seen = { drafts: [] as { text: string; hiddenFromReaders: boolean; elements: number }[], typing: false, liveBubbles: [] as string[] }
      ;(window as unknown as { __seen: typeof seen }).__seen = seen
      new MutationObserver(() => {
        const text = root.querySelector('.msg.draft p.text')
        if (text && text.textContent !== seen.drafts.at(-1)?.text) {
          seen.drafts.push({ text: text.textContent ?? '', hiddenFromReaders: text.closest('[aria-hidden="true"]') !== null, elements: text.querySelectorAll('*').length })
        }
        if (root.querySelector('.msg.typing[role="status"]')) seen.typing = true
      }).observe(root, { subtree: true, childList: true, characterData: true })
    })
    const seen = () => visitor.page.evaluate(() => (window as unknown as { __seen: { drafts: { text: string; hiddenFromReaders: boolean; elements: number }[]; typing: boolean } }).__seen)
    const bubbles = async () => (await visitor.shown()).filter((message) => message.role !== 'system')

    await visitor.sendText('What is 2 + 40?')
    await waitUntil(async () => (await visitor.page.locator('#parley-widget .msg.draft').count()) === 0 && (await bubbles()).some((message) => message.text === ANSWER), 'the stored answer replaced the draft', {
      seen: bubbles,
    })
    const observed = await seen()
    // The answer grew in front of the visitor: several states of the draft, each the one before plus more.
    expect(observed.drafts.length).toBeGreaterThanOrEqual(3)
    for (const [index, draft] of observed.drafts.entries()) {
      expect(ANSWER.startsWith(draft.text)).toBe(true)
      if (index > 0) expect(draft.text.length).toBeGreaterThan(observed.drafts[index - 1]!.text.length)
      // Text only, and hidden from screen readers while it grows.
      expect(draft.elements).toBe(0)
      expect(draft.hiddenFromReaders).toBe(true)
    }
    expect(observed.typing).toBe(true)
    expect(visitor.received('draft_delta').length).toBeGreaterThanOrEqual(3)
    // The stored message took the draft's place: shown once, no draft left, announced once (the
    // log holds one readable bubble with the answer, and the draft was never readable).
    const draftIds = new Set(visitor.received('draft').map((frame) => frame.message_id))
    const answerMessage = visitor.received('message').find((frame) => frame.message.role === 'bot')!.message
    expect(draftIds.has(answerMessage.id)).toBe(true)
    const shown = await bubbles()
    expect(shown.filter((message) => message.text === ANSWER)).toHaveLength(1)
    expect(await visitor.page.locator('#parley-widget .msg.draft').count()).toBe(0)
    expect(await visitor.page.locator('#parley-widget .msg.bot img').count()).toBe(0)
    const readable = await visitor.page.locator('#parley-widget .log').ariaSnapshot()
    expect(readable.split(ANSWER.slice(0, 40)).length - 1).toBe(1)
    expect(tools.counters.toolCalls).toBe(2)
    // The model's first request: the state's instructions, then the visitor's language in a system line of its own.
    expect(model.requests[0]!.body.messages.slice(0, 2)).toEqual([
      { role: 'system', content: 'Answer billing questions.' },
      { role: 'system', content: "The visitor's language is European Spanish (es-ES). Answer in that language unless the visitor writes in another one." },
    ])

    // The exit: the model calls it, the flow moves to the handoff state.
    await visitor.sendText('I want a person, please')
    await visitor.shownText('A person will take over.', 'bot')
    const conversationId = answerMessage.conversation_id
    await waitUntil(async () => (await api('GET', `/chatbots/${bot.id}/conversations/${conversationId}`)).status === 'handoff', 'the conversation is handed off')
    const stored = await api('GET', `/chatbots/${bot.id}/conversations/${conversationId}/messages`)
    const items = (stored.items ?? stored) as { role: string; content: { text?: string } }[]
    expect(items.filter((message) => message.role === 'bot').map((message) => message.content.text)).toEqual([ANSWER, 'A person will take over.'])
    expect(visitor.pageErrors()).toEqual([])
  }, E2E_TIMEOUT)
})
