import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import type { TestApp } from '../support/test-app.ts'

export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
export const UNKNOWN_ID = '01ARZ3NDEKTSV4RRFFQ69G5FAV'

export const chatbotsPath = '/api/dev/v1/chatbots'
export const flowsPath = (chatbotId: string) => `${chatbotsPath}/${chatbotId}/flows`
export const flowPath = (chatbotId: string, flowId: string) => `${flowsPath(chatbotId)}/${flowId}`

/** A small conversation flow with no error and no warning. */
export function helloFlow(greeting = 'Hello!'): ConversationFlow {
  return {
    version: 1,
    start: 'hello',
    states: {
      hello: { say: [{ text: greeting }], on: [{ equals: 'bye', to: 'bye' }, { to: 'hello' }] },
      bye: { say: [{ text: 'Bye!' }], end: true },
    },
  }
}

/** A conversation flow with two errors: a transition to no state and a state with no way out. */
export function brokenFlow() {
  return { version: 1, start: 'hello', states: { hello: { say: [{ text: 'Hi' }], on: [{ to: 'nowhere' }] }, stuck: {} } }
}

export async function createChatbot(app: TestApp, name: string, key?: string): Promise<string> {
  const created = await app.call('POST', chatbotsPath, { body: { name }, key })
  if (created.status !== 201) throw new Error(`chatbot not created: ${created.text}`)
  return created.body.id
}

export async function createFlow(app: TestApp, chatbotId: string, body: Record<string, unknown>, key?: string): Promise<string> {
  const created = await app.call('POST', flowsPath(chatbotId), { body, key })
  if (created.status !== 201) throw new Error(`flow not created: ${created.text}`)
  return created.body.id
}

export async function publish(app: TestApp, chatbotId: string, flowId: string, key?: string) {
  return await app.call('POST', `${flowPath(chatbotId, flowId)}/publish`, { key })
}
