import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import type { TestApp } from './test-app.ts'

/** The flow from conversation-flow.md: buttons, a regex, an e-mail capture and a handoff. */
export const SALES_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  variables: { email: { type: 'string' } },
  states: {
    welcome: {
      say: [
        { text: 'Hi! How can I help?' },
        { text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] },
      ],
      on: [
        { button: 'sales', to: 'ask_email' },
        { match: '(?i)\\b(price|pricing)\\b', to: 'ask_email' },
        { button: 'support', to: 'human' },
        { to: 'fallback' },
      ],
    },
    ask_email: {
      say: [{ text: 'What is your email?' }],
      capture: { var: 'email', as: 'email', retry: 'That does not look like an email.' },
      next: 'thanks',
    },
    fallback: { say: [{ text: 'Sorry, I did not get that.' }], next: 'welcome' },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
    thanks: { say: [{ text: 'Thanks, we will write to {{email}}.' }], end: true },
  },
}

export interface WebChat {
  chatbotId: string
  integrationId: string
  widgetKey: string
  flowId: string | null
}

/**
 * A chatbot with a web integration and (unless `flow: null`) a published conversation flow,
 * made through the developer API as a customer would.
 */
export async function setUpWebChat(
  app: TestApp,
  options: { flow?: ConversationFlow | null; web?: Record<string, unknown>; key?: string } = {},
): Promise<WebChat> {
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `/api/dev/v1${path}`, { body, key: options.key })
    if (result.status >= 300) throw new Error(`${method} ${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  const bot = await call('POST', '/chatbots', { name: 'Web bot' })
  let flowId: string | null = null
  if (options.flow !== null) {
    const flow = await call('POST', `/chatbots/${bot.id}/flows`, { name: 'Main', type: 'conversation', flow: options.flow ?? SALES_FLOW })
    await call('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)
    flowId = flow.id
  }
  const web = await call('POST', `/chatbots/${bot.id}/integrations/web`, { name: 'Site', ...options.web })
  return { chatbotId: bot.id, integrationId: web.id, widgetKey: web.config.widget_key, flowId }
}

/** The text of any chat message content, for compact assertions. */
export function textOf(content: { kind: string; text?: string; title?: string; cta?: string }): string {
  return content.text ?? content.title ?? content.cta ?? `[${content.kind}]`
}
