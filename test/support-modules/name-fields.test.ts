import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { hasRefusedCharacter, nameText } from '../../server/support/name-text.ts'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'

/**
 * Every name field refuses control characters and bidirectional overrides with a 422 naming
 * the field, whatever route it comes through, from the source and from the compiled binary:
 * a display name with `ESC ]0;...` used to be stored and printed raw by `parley users list`,
 * and chatbot names took ESC and U+202E.
 */

const HOSTILE = {
  retitle: 'Sam\u001b]0;pwned\u0007',
  clear: 'Sam\u001b[2J',
  override: 'Support\u202egpj.exe',
  isolate: 'Sales\u2066x\u2069',
  newline: 'two\nlines',
  c1: 'one-char CSI \u009b2J',
  bell: 'ding\u0007',
  mark: 'left\u200fright',
}

describe('the name schema', () => {
  const schema = nameText(100)
  test.each(Object.entries(HOSTILE))('refuses %s', (_kind, name) => {
    expect(Value.Check(schema, name)).toBe(false)
    expect(hasRefusedCharacter(name)).toBe(true)
  })

  test.each(['Sam Lee', 'Zoë Åström', '支持团队', 'دعم العملاء', 'Support 🤖', "O'Brien & Co. (EU)", 'tab-free\u00a0nbsp'])('accepts %s', (name) => {
    expect(Value.Check(schema, name)).toBe(true)
    expect(hasRefusedCharacter(name)).toBe(false)
  })

  test('and keeps its length limits', () => {
    expect(Value.Check(schema, '')).toBe(false)
    expect(Value.Check(schema, 'x'.repeat(101))).toBe(false)
  })
})

interface Ctx {
  bot: string
  flow: string
  user: string
  conversation: string
}

async function setup(app: TestApp): Promise<Ctx> {
  const must = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1${path}`, { body })
    if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`)
    return result.body
  }
  const bot = (await must('POST', '/chatbots', { name: 'Names' })).id
  const flow = (await must('POST', `/chatbots/${bot}/flows`, { name: 'Main', type: 'conversation', flow: { version: 1, start: 'a', states: { a: { say: [{ text: 'Hi' }], end: true } } } })).id
  await must('POST', `/chatbots/${bot}/integrations/web`, { name: 'Website' })
  const user = (await must('POST', '/users', { email: 'sam@acme.io', display_name: 'Sam', role: 'agent' })).user.id
  const contact = app.services.visitors.ensureContact(bot, { externalId: null, tokenHash: 'names-visitor' })
  const { conversation } = app.services.conversations.openWith({ chatbotId: bot, channel: 'web', integrationId: null }, contact.id, null, { content: { kind: 'text', text: 'hello' } })
  return { bot, flow, user, conversation: conversation.id }
}

const b = (ctx: Ctx) => `/api/dev/v1/chatbots/${ctx.bot}`

/** [what, method, path, body, the field] */
const FIELDS: [string, string, (ctx: Ctx) => string, (name: string) => unknown, string][] = [
  ['a new chatbot', 'POST', () => '/api/dev/v1/chatbots', (name) => ({ name }), '/name'],
  ['a chatbot renamed', 'PATCH', b, (name) => ({ name }), '/name'],
  ['a new flow', 'POST', (ctx) => `${b(ctx)}/flows`, (name) => ({ name, type: 'conversation', flow: { version: 1, start: 'a', states: { a: { end: true } } } }), '/name'],
  ['a flow renamed', 'PATCH', (ctx) => `${b(ctx)}/flows/${ctx.flow}`, (name) => ({ name }), '/name'],
  ['a new web integration', 'POST', (ctx) => `${b(ctx)}/integrations/web`, (name) => ({ name }), '/name'],
  ['a web integration renamed', 'PATCH', (ctx) => `${b(ctx)}/integrations/web`, (name) => ({ name }), '/name'],
  ["the widget's bot name", 'POST', (ctx) => `${b(ctx)}/integrations/web`, (name) => ({ name: 'Website', widget_config: { bot_display_name: name } }), '/widget_config/bot_display_name'],
  ["the widget's bot name changed", 'PATCH', (ctx) => `${b(ctx)}/integrations/web`, (name) => ({ widget_config: { bot_display_name: name } }), '/widget_config/bot_display_name'],
  ['a new rest-api integration', 'POST', (ctx) => `${b(ctx)}/integrations/rest-api`, (name) => ({ webhook_url: 'https://hooks.example.com/in', name }), '/name'],
  ['a rest-api integration renamed', 'PATCH', (ctx) => `${b(ctx)}/integrations/rest-api`, (name) => ({ name }), '/name'],
  ['a new chatapp integration', 'POST', (ctx) => `${b(ctx)}/integrations/chatapp`, (name) => ({ phone_number_id: '1065', access_token: 'EAAG-token', verify_token: 'verify-me', name }), '/name'],
  ['a chatapp integration renamed', 'PATCH', (ctx) => `${b(ctx)}/integrations/chatapp`, (name) => ({ name }), '/name'],
  ['a new mcp integration', 'POST', (ctx) => `${b(ctx)}/integrations/mcp`, (name) => ({ name, url: 'https://tools.example.com/mcp' }), '/name'],
  ['a new API key', 'POST', () => '/api/dev/v1/api-keys', (name) => ({ name }), '/name'],
  ['an invited person', 'POST', () => '/api/dev/v1/users', (name) => ({ email: 'kim@acme.io', display_name: name, role: 'agent' }), '/display_name'],
  ['a person renamed', 'PATCH', (ctx) => `/api/dev/v1/users/${ctx.user}`, (name) => ({ display_name: name }), '/display_name'],
  ['a person accepting an invite', 'POST', () => '/api/dev/v1/auth/accept-invite', (name) => ({ token: 'pt_whatever', password: 'correct horse battery', display_name: name }), '/display_name'],
  ["an agent message's author", 'POST', (ctx) => `${b(ctx)}/conversations/${ctx.conversation}/messages`, (name) => ({ text: 'Hello', author: name }), '/author'],
]

const hostile = Object.entries(HOSTILE)
const rows: Scenario<Ctx>[] = FIELDS.map(([what, method, path, body, field], index) => {
  const [kind, name] = hostile[index % hostile.length] as [string, string]
  return {
    name: `${what}: a name with ${kind} characters is refused at ${field}`,
    method,
    path,
    body: () => body(name),
    status: 422,
    code: 'validation_failed',
    errorPaths: [field],
    check: ({ body: answer }) => {
      // The refusal names the field and the rule, and never echoes the name back.
      // (An mcp integration's name is an identifier: letters, digits, _ and -, as its own rule says.)
      expect(answer.errors[0].message).toContain(what === 'a new mcp integration' ? 'letters, digits' : 'control characters')
      expect(JSON.stringify(answer)).not.toContain(name)
    },
  }
})

rows.push(
  {
    name: 'names in any script, with emoji and punctuation, are kept as written',
    method: 'POST',
    path: '/api/dev/v1/chatbots',
    body: { name: 'Zoë 支持 دعم 🤖 & Co.' },
    status: 201,
    check: ({ body }) => expect(body.name).toBe('Zoë 支持 دعم 🤖 & Co.'),
  },
  {
    name: 'a display name in another script is kept as written',
    method: 'PATCH',
    path: (ctx) => `/api/dev/v1/users/${ctx.user}`,
    body: { display_name: 'Åsa Öberg-Łukasz' },
    status: 200,
    check: ({ body }) => expect(body.display_name).toBe('Åsa Öberg-Łukasz'),
  },
)

scenarios('name fields refuse control and bidi-override characters', setup, rows)
