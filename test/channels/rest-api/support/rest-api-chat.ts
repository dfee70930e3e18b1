import type { ConversationFlow } from '../../../../server/flow-language/conversation-flow-schema.ts'
import { SALES_FLOW } from '../../../support/web-chat.ts'

interface Caller {
  call(method: string, path: string, options?: { body?: unknown; key?: string | null }): Promise<{ status: number; body: any; text: string }>
}

export interface RestApiChat {
  chatbotId: string
  integrationId: string
  /** The whsec_ secret, as the create answer showed it once. */
  secret: string
  flowId: string | null
  /** `/api/dev/v1/chatbots/{id}` and what follows. */
  path: (rest?: string) => string
}

/**
 * A chatbot with a published conversation flow (unless `flow: null`) and a rest-api
 * integration pointing at `webhookUrl`, made through the developer API as a customer would.
 */
export async function setUpRestApiChat(
  app: Caller,
  webhookUrl: string,
  options: { flow?: ConversationFlow | null; key?: string } = {},
): Promise<RestApiChat> {
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1${path}`, { body, key: options.key })
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  const bot = await call('POST', '/chatbots', { name: 'API bot' })
  let flowId: string | null = null
  if (options.flow !== null) {
    const flow = await call('POST', `/chatbots/${bot.id}/flows`, { name: 'Main', type: 'conversation', flow: options.flow ?? SALES_FLOW })
    await call('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)
    flowId = flow.id
  }
  const integration = await call('POST', `/chatbots/${bot.id}/integrations/rest-api`, { webhook_url: webhookUrl, name: 'Back office' })
  return {
    chatbotId: bot.id,
    integrationId: integration.id,
    secret: integration.signing_secret,
    flowId,
    path: (rest = '') => `/api/dev/v1/chatbots/${bot.id}${rest}`,
  }
}

/** The text a webhook event carries, for compact assertions: a message's text or title, or the status change. */
export function summary(event: any): string {
  if (event.type === 'conversation.status_changed') return `[${event.data.previous_status} → ${event.data.status}]`
  const { role, content } = event.data.message
  return `${role}: ${content.text ?? content.title ?? `[${content.kind}]`}`
}
