import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { curlExamples, parseCurl } from '../support/curl-examples.ts'
import { DOCS_ORIGIN, runCurlExample } from '../support/run-curl-example.ts'
import { fakeChatCompletions } from '../llm/support/fake-chat-completions.ts'
import { DOCS_TOKEN, docsServer } from '../mcp/support/docs-server.ts'
import { type McpApp, mcpApp } from '../mcp/support/mcp-app.ts'
import type { RunningMcpServer } from '../mcp/support/mcp-servers.ts'
import { runsSettled } from './support/agent-chat.ts'

const page = readFileSync(new URL('../../docs/agents.md', import.meta.url), 'utf8')
const examples = curlExamples(page)
/** The model endpoints the page shows; the tests send them to a fake model on 127.0.0.1. */
const DOCUMENTED_MODELS = ['https://api.openai.com/v1', 'http://127.0.0.1:11434/v1']
/** The integration id the page's flow names, replaced by the real one. */
const DOCUMENTED_INTEGRATION = '01JD3Q9E2X4Y6Z8A0B2C4D6E8G'

/** The page's flow: the first json block after "## The state". */
function documentedFlow(): Record<string, any> {
  const from = page.indexOf('## The state')
  const start = page.indexOf('```json', from) + '```json'.length
  return JSON.parse(page.slice(start, page.indexOf('```', start)))
}

/** The conversation the page's trace shows: a tool call, then the answer; a claim exits with the order number. */
const model = fakeChatCompletions((body) => {
  // The model test (POST .../llm/test) offers its one function and asks for OK.
  if (body.tools?.some((tool) => tool.function.name === 'parley_connection_test')) return { text: 'OK', usage: { prompt_tokens: 61, completion_tokens: 1 } }
  const last = body.messages.at(-1)!
  if (last.role === 'tool') return { text: 'Your order A-1042 shipped on 14 January.', usage: { prompt_tokens: 262, completion_tokens: 14 } }
  if (String(last.content).includes('broken')) return { toolCalls: [{ name: 'exit_claim', arguments: '{"order_number":"A-1042"}' }] }
  return { toolCalls: [{ name: 'orders__find_order', arguments: '{"number":"A-1042"}' }], usage: { prompt_tokens: 210, completion_tokens: 18 } }
})


describe('docs/agents.md: the flow runs and every curl example answers as documented', () => {
  let app: McpApp
  let server: RunningMcpServer
  let bot: string
  const vars: Record<string, string> = { PARLEY_URL: DOCS_ORIGIN }
  const open = (user: string, text: string) => {
    const contact = app.services.visitors.ensureContact(bot, { externalId: `${user}@example.com`, tokenHash: user })
    app.services.visitors.mergeDetails(contact.id, { name: 'Ada' })
    return app.services.conversations.openWith({ chatbotId: bot, channel: 'web', integrationId: null }, contact.id, null, { content: { kind: 'text', text } }).conversation.id
  }
  const transcript = async (conversationId: string) =>
    (await app.call('GET', `/api/dev/v1/chatbots/${bot}/conversations/${conversationId}/messages`)).body.items.map(
      (message: { role: string; content: { text: string } }) => `${message.role}: ${message.content.text}`,
    )

  beforeAll(async () => {
    server = await docsServer()
    app = mcpApp()
    vars.PARLEY_KEY = app.key
    bot = await app.chatbot()
    vars.CHATBOT_ID = bot
    const must = async (method: string, path: string, body?: unknown) => {
      const result = await app.call(method, `/api/dev/v1/chatbots/${bot}${path}`, { body })
      if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
      return result.body
    }
    const orders = await must('POST', '/integrations/mcp', { name: 'orders', url: server.url, auth: { type: 'bearer', token: DOCS_TOKEN } })
    await must('PATCH', '', { name: 'Support', llm: { base_url: model.baseUrl, model: 'gpt-4o-mini' } })
    const flow = JSON.parse(JSON.stringify(documentedFlow()).replaceAll(DOCUMENTED_INTEGRATION, orders.id))
    const created = await must('POST', '/flows', { name: 'Support', type: 'conversation', flow })
    await must('POST', `/flows/${created.id}/publish`)
    await must('PATCH', '', { entry_flow_id: created.id })
    vars.CONVERSATION_ID = open('ada', 'Where is my order A-1042?')
    await runsSettled(app)
  })
  afterAll(async () => {
    await app.close()
    await server.stop()
    model.stop()
  })

  test('the flow validates, and its model reads the filled instructions and the allowed tools only', async () => {
    const sent = model.requests[0]!.body
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'You answer questions about orders for Ada. Be brief. Look orders up with the tools; never guess.' })
    expect(sent.tools!.map((tool) => tool.function.name).sort()).toEqual(['exit_claim', 'exit_human', 'orders__find_order', 'orders__order_status'])
    expect(sent.tools!.find((tool) => tool.function.name === 'exit_claim')!.function.description).toBe(
      'Call this when the order is lost or damaged. It ends your part of the conversation.',
    )
    expect(await transcript(vars.CONVERSATION_ID!)).toEqual(['visitor: Where is my order A-1042?', 'bot: Your order A-1042 shipped on 14 January.'])
  })

  test('an exit with a capture moves the flow to the claim, which says the captured number', async () => {
    const before = model.requests.length
    const claim = open('bob', 'My order A-1042 arrived broken')
    await runsSettled(app)
    expect(model.requests.length).toBe(before + 1)
    expect(await transcript(claim)).toEqual([
      'visitor: My order A-1042 arrived broken',
      'bot: Sorry about order A-1042. A claim is open; we will write to you.',
    ])
    // The claim's run would change the usage example's figures: it is removed again (its conversation with it).
    app.db.run('DELETE FROM conversations WHERE id = ?', [claim])
  })

  test('the page has its examples', () => {
    expect(examples.length).toBe(5)
  })

  for (const example of examples) {
    test(`line ${example.line} (${example.heading}): answers ${example.status}`, async () => {
      let command = example.command
      for (const documented of DOCUMENTED_MODELS) command = command.replaceAll(documented, model.baseUrl)
      const result = await runCurlExample(app, { ...example, command }, vars)
      expect(JSON.stringify(result.body)).not.toContain('sk-proj-4f9a8b7c6d5e3f2a')
    })
  }

  test('together they cover every route of agent states and the model test', () => {
    const template = { PARLEY_URL: DOCS_ORIGIN, PARLEY_KEY: 'pk', CHATBOT_ID: '{chatbot_id}', CONVERSATION_ID: '{conversation_id}' }
    const shown = new Set(examples.map((example) => {
      const request = parseCurl(example.command, template)
      return `${request.method || 'GET'} ${decodeURIComponent(new URL(request.url).pathname)}`
    }))
    const routes = app.http.routes
      .filter((route) => route.path.endsWith('/trace') || route.path.endsWith('/usage') || route.path.endsWith('/llm/test'))
      .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    expect(routes).toHaveLength(3)
    expect(routes.filter((route) => !shown.has(route))).toEqual([])
  })
})
