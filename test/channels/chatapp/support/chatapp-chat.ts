import { createHmac } from 'node:crypto'
import type { ConversationFlow } from '../../../../server/flow-language/conversation-flow-schema.ts'
import { SALES_FLOW } from '../../../support/web-chat.ts'
import type { FakeGraphApi } from './fake-graph-api.ts'

interface Caller {
  call(
    method: string,
    path: string,
    options?: { body?: unknown; rawBody?: string; key?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; body: any; text: string; headers?: Headers }>
}

export interface ChatappChat {
  chatbotId: string
  integrationId: string
  phoneNumberId: string
  accessToken: string
  appSecret: string | null
  flowId: string | null
  /** `/api/dev/v1/chatbots/{id}` and what follows. */
  path: (rest?: string) => string
  /** The callback_url's path. */
  hookPath: string
}

let numbers = 0

/**
 * A chatbot with a published conversation flow (unless `flow: null`) and a chatapp
 * integration for a business number that the fake provider knows with the same token, made
 * through the developer API as a customer would.
 */
export async function setUpChatappChat(
  app: Caller,
  graph: FakeGraphApi | null,
  options: { flow?: ConversationFlow | null; appSecret?: string; phoneNumberId?: string; key?: string } = {},
): Promise<ChatappChat> {
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1${path}`, { body, key: options.key })
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  const phoneNumberId = options.phoneNumberId ?? `10654035224${String(++numbers).padStart(4, '0')}`
  const accessToken = `EAAG-test-token-${phoneNumberId}`
  graph?.register(phoneNumberId, accessToken)
  const bot = await call('POST', '/chatbots', { name: 'Chat app bot' })
  let flowId: string | null = null
  if (options.flow !== null) {
    const flow = await call('POST', `/chatbots/${bot.id}/flows`, { name: 'Main', type: 'conversation', flow: options.flow ?? SALES_FLOW })
    await call('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)
    flowId = flow.id
  }
  const integration = await call('POST', `/chatbots/${bot.id}/integrations/chatapp`, {
    phone_number_id: phoneNumberId,
    access_token: accessToken,
    verify_token: 'verify-me-please',
    ...(options.appSecret ? { app_secret: options.appSecret } : {}),
  })
  return {
    chatbotId: bot.id,
    integrationId: integration.id,
    phoneNumberId,
    accessToken,
    appSecret: options.appSecret ?? null,
    flowId,
    path: (rest = '') => `/api/dev/v1/chatbots/${bot.id}${rest}`,
    hookPath: new URL(integration.config.callback_url).pathname,
  }
}

/** The provider's X-Hub-Signature-256 for a body. */
export const signatureOf = (appSecret: string, body: string) => `sha256=${createHmac('sha256', appSecret).update(body).digest('hex')}`

/** POSTs a webhook body as the provider does: the exact JSON text, signed when the chat has an app secret. */
export function postWebhook(app: Caller, chat: ChatappChat, body: unknown, headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body)
  const signed: Record<string, string> = { 'content-type': 'application/json' }
  if (chat.appSecret) signed['x-hub-signature-256'] = signatureOf(chat.appSecret, text)
  return app.call('POST', chat.hookPath, { rawBody: text, key: null, headers: { ...signed, ...headers } })
}

let wamids = 0
export const nextWamid = () => `wamid.HBgLMTU1NTAxMjM0NTY3FQIAEhgUM0VCMDg${String(++wamids).padStart(6, '0')}`

/** A webhook body in the provider's wire format, for one business number. */
export function webhook(phoneNumberId: string, value: { messages?: unknown[]; statuses?: unknown[]; contacts?: unknown[] }) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550783881', phone_number_id: phoneNumberId }, ...value },
            field: 'messages',
          },
        ],
      },
    ],
  }
}

/** One user message (`text`, a button or list pick, ...) from `from`, as the provider wraps it. */
export function userMessage(chat: ChatappChat, from: string, message: Record<string, unknown>, profileName = 'Ada Lovelace') {
  return webhook(chat.phoneNumberId, {
    contacts: [{ profile: { name: profileName }, wa_id: from }],
    messages: [{ from, id: nextWamid(), timestamp: String(Math.floor(Date.now() / 1000)), ...message }],
  })
}

export const text = (body: string) => ({ type: 'text', text: { body } })
export const buttonPick = (id: string, title: string, context?: string) => ({
  type: 'interactive',
  interactive: { type: 'button_reply', button_reply: { id, title } },
  ...(context ? { context: { from: '15550783881', id: context } } : {}),
})
export const rowPick = (id: string, title: string, context?: string) => ({
  type: 'interactive',
  interactive: { type: 'list_reply', list_reply: { id, title } },
  ...(context ? { context: { from: '15550783881', id: context } } : {}),
})

/** A status report on a message Parley sent. */
export function statusReport(chat: ChatappChat, wamid: string, status: string, extra: Record<string, unknown> = {}) {
  return webhook(chat.phoneNumberId, {
    statuses: [{ id: wamid, status, timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '447911123456', ...extra }],
  })
}
