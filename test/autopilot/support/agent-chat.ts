import type { AppDeps } from '../../../server/app.ts'
import type { StoredConversation } from '../../../server/conversations/conversation-store.ts'
import type { Message } from '../../../server/conversations/model.ts'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import type { DomainEvents } from '../../../server/events/domain-events.ts'
import { fakeChatCompletions, type ScriptedReply } from '../../llm/support/fake-chat-completions.ts'
import { fakeLookup } from '../../mcp/support/mcp-app.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'

/** A flow whose `billing` state is an LLM agent with the tools of `{{TOOLS}}` and two exits. */
export function billingFlow(toolsIntegrationId: string | null, agent: Record<string, unknown> = {}): ConversationFlow {
  return {
    version: 1,
    start: 'billing',
    variables: { invoice: { type: 'string' }, amount: { type: 'number' } },
    states: {
      billing: {
        agent: {
          instructions: 'Answer billing questions for {{contact.name|the visitor}}.',
          ...(toolsIntegrationId ? { tools: [{ integration_id: toolsIntegrationId, allow: ['echo', 'add', 'fail', 'slow'] }] } : {}),
          exits: [
            { when: 'the visitor wants a person', to: 'human' },
            { when: 'the invoice was found', to: 'found', capture: ['invoice', 'amount'] },
          ],
          ...agent,
        },
      },
      human: { handoff: { text: 'A person will take over.' } },
      found: { say: [{ text: 'Invoice {{invoice}}: {{amount}} EUR.' }], end: true },
      sorry: { say: [{ text: 'The assistant is unavailable; write to billing@example.com.' }], end: true },
    },
  } as ConversationFlow
}

export interface AgentChat {
  app: TestApp
  model: ReturnType<typeof fakeChatCompletions>
  chatbotId: string
  /** The waits the runner asked for before retrying the model. */
  waits: number[]
  /** Every draft and bot-typing event, in order. */
  drafts: DomainEvents['conversation.draft'][]
  typing: DomainEvents['conversation.typing'][]
  /** Opens a conversation with the visitor's first message (as a channel would) and answers it. */
  open(text: string, details?: Record<string, string>): StoredConversation
  say(conversation: StoredConversation, text: string): void
  messages(conversationId: string): Message[]
  /** Waits until no run is under way or pending in this app. */
  settled(): Promise<void>
  close(): Promise<void>
}

/**
 * A Parley (real SQLite file, in process) whose chatbot has the fake model as its `llm`, an MCP
 * integration when `toolsUrl` is given, and `flow` published; runs are driven through the
 * conversation service as a channel drives them.
 */
export async function agentChat(options: {
  script: ScriptedReply[] | ((body: any, index: number) => ScriptedReply)
  flow: (mcpIntegrationId: string | null) => ConversationFlow
  toolsUrl?: string
  tuning?: NonNullable<AppDeps['tuning']>['autopilot']
  llm?: Record<string, unknown> | null
}): Promise<AgentChat> {
  const model = fakeChatCompletions(options.script)
  const waits: number[] = []
  const app = testApp(
    { PARLEY_OUTBOUND_ALLOW: '127.0.0.1,tools.test' },
    { dnsLookup: fakeLookup, autopilot: { sleep: async (ms) => void waits.push(ms), ...options.tuning } },
  )
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1${path}`, { body })
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  const bot = await call('POST', '/chatbots', { name: 'Billing' })
  if (options.llm !== null) await call('PATCH', `/chatbots/${bot.id}`, { llm: { base_url: model.baseUrl, api_key: 'sk-test-key', model: 'fake-1', ...options.llm } })
  let mcpId: string | null = null
  if (options.toolsUrl) mcpId = (await call('POST', `/chatbots/${bot.id}/integrations/mcp`, { name: 'billing', url: options.toolsUrl, tools: { allow: null, deny: ['delete_everything'] } })).id
  const flow = await call('POST', `/chatbots/${bot.id}/flows`, { name: 'Main', type: 'conversation', flow: options.flow(mcpId) })
  await call('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)

  const drafts: AgentChat['drafts'] = []
  const typing: AgentChat['typing'] = []
  app.events.on('conversation.draft', (event) => void drafts.push(event))
  app.events.on('conversation.typing', (event) => void (event.from === 'bot' && typing.push(event)))
  const ctx = { chatbotId: bot.id, channel: 'web' as const, integrationId: null }
  let visitors = 0

  return {
    app,
    model,
    chatbotId: bot.id,
    waits,
    drafts,
    typing,
    open(text, details = {}) {
      const contact = app.services.visitors.ensureContact(bot.id, { externalId: `visitor-${++visitors}@example.com`, tokenHash: `hash-${visitors}` })
      if (Object.keys(details).length) app.services.visitors.mergeDetails(contact.id, details)
      return app.services.conversations.openWith(ctx, contact.id, null, { content: { kind: 'text', text } }).conversation
    },
    say(conversation, text) {
      const current = app.services.conversations.get(conversation.id) as StoredConversation
      app.services.conversations.visitorSays(current, { content: { kind: 'text', text } }, ctx)
    },
    messages: (conversationId) => app.services.conversations.history(conversationId).messages,
    settled: () => runsSettled(app),
    async close() {
      await app.close()
      model.stop()
    },
  }
}

/** A conversation's messages as `role: text`, for compact assertions. */
export function transcript(messages: Message[]): string[] {
  return messages.map((message) => {
    const content = message.content as { text?: string; title?: string; kind: string }
    return `${message.role}: ${content.text ?? content.title ?? `[${content.kind}]`}`
  })
}

/** Waits until no agent run of the app is under way or pending (fails after 10 s). */
export async function runsSettled(app: Pick<TestApp, 'db' | 'services'>): Promise<void> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const pending = app.db.query<{ n: number }, []>("SELECT count(*) AS n FROM agent_runs WHERE status = 'pending'").get()?.n ?? 0
    if (pending === 0 && app.services.autopilot.busy() === 0) return
    if (Date.now() > deadline) throw new Error(`runs still pending after 10 s (${pending} pending)`)
    await Bun.sleep(5)
  }
}
