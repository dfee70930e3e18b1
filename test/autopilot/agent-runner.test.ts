import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { type RunningMcpServer, streamableServer } from '../mcp/support/mcp-servers.ts'
import { type AgentChat, agentChat, billingFlow, transcript } from './support/agent-chat.ts'

let tools: RunningMcpServer
let chat: AgentChat | undefined

beforeAll(async () => {
  tools = await streamableServer()
})
afterAll(async () => {
  await tools.stop()
})
afterEach(async () => {
  await chat?.close()
  chat = undefined
})

describe('a visitor in an agent state', () => {
  test('gets the model text answer stored as the bot message, once', async () => {
    chat = await agentChat({ script: [{ text: 'Your invoice INV-7 is paid.', usage: { prompt_tokens: 50, completion_tokens: 8 } }], flow: () => billingFlow(null) })
    const conversation = chat.open('Is INV-7 paid?', { name: 'Ada' })
    await chat.settled()
    expect(transcript(chat.messages(conversation.id))).toEqual(['visitor: Is INV-7 paid?', 'bot: Your invoice INV-7 is paid.'])
    const sent = chat.model.requests[0]!.body
    expect(sent.messages[0]).toEqual({ role: 'system', content: 'Answer billing questions for Ada.' })
    expect(sent.messages.slice(1)).toEqual([{ role: 'user', content: 'Is INV-7 paid?' }])
    expect(sent.model).toBe('fake-1')
    expect(chat.model.requests[0]!.headers.get('authorization')).toBe('Bearer sk-test-key')
  })
})
