import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { newId } from '../../server/support/new-id.ts'
import { testApp, type TestApp } from '../support/test-app.ts'
import { createChatbot, createFlow, flowPath, publish, UNKNOWN_ID } from './flow-fixtures.ts'

const metaDocument = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/whatsapp-flows/flows-v6_3.json'), 'utf8')).chips_selector

/** A conversation flow that sends the meta flow `flowId`. */
function sending(flowId: string) {
  return {
    version: 1,
    start: 'offer',
    states: {
      offer: { say: [{ meta_flow: { flow_id: flowId, cta: 'Choose' } }], end: true },
    },
  }
}

const metaFlowAt = '/states/offer/say/0/meta_flow/flow_id'

describe('a conversation flow\'s references to its chatbot', () => {
  let app: TestApp
  let botId: string
  let metaId: string
  const validateSending = async (flowId: string) => {
    const id = await createFlow(app, botId, { name: 'Offer', type: 'conversation', flow: sending(flowId) })
    return { id, report: (await app.call('POST', `${flowPath(botId, id)}/validate`)).body }
  }

  beforeAll(async () => {
    app = testApp()
    botId = await createChatbot(app, 'Refs')
    metaId = await createFlow(app, botId, { name: 'Form', type: 'meta', flow: metaDocument })
  })
  afterAll(() => app.close())

  test('a meta flow that is not published yet is a warning, and publishing is allowed', async () => {
    const { id, report } = await validateSending(metaId)
    expect(report).toEqual({ valid: true, errors: [], warnings: [{ path: metaFlowAt, code: 'unpublished_meta_flow', message: expect.any(String) }] })
    expect((await publish(app, botId, id)).status).toBe(200)
  })

  test('a published meta flow of the chatbot is fine', async () => {
    await publish(app, botId, metaId)
    expect((await validateSending(metaId)).report).toEqual({ valid: true, errors: [], warnings: [] })
  })

  test('a flow id the chatbot does not have is an error, and publishing is refused', async () => {
    const { id, report } = await validateSending(UNKNOWN_ID)
    expect(report.errors).toEqual([{ path: metaFlowAt, code: 'unknown_meta_flow', message: `"${UNKNOWN_ID}" names no flow of this chatbot` }])
    const refused = await publish(app, botId, id)
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual(report.errors)
  })

  test('a conversation flow is no meta flow', async () => {
    const conversation = await createFlow(app, botId, { name: 'Other', type: 'conversation', flow: sending(metaId) })
    expect((await validateSending(conversation)).report.errors).toEqual([
      { path: metaFlowAt, code: 'unknown_meta_flow', message: `"${conversation}" is a conversation flow; a meta_flow message sends a meta flow` },
    ])
  })

  test('another chatbot\'s meta flow is not this chatbot\'s', async () => {
    const otherBot = await createChatbot(app, 'Other bot')
    const theirs = await createFlow(app, otherBot, { name: 'Theirs', type: 'meta', flow: metaDocument })
    await publish(app, otherBot, theirs)
    expect((await validateSending(theirs)).report.errors.map((e: { code: string }) => e.code)).toEqual(['unknown_meta_flow'])
  })

  test('once the meta flow is deleted, the reference is an error', async () => {
    const doomed = await createFlow(app, botId, { name: 'Doomed', type: 'meta', flow: metaDocument })
    expect((await validateSending(doomed)).report.valid).toBe(true)
    await app.call('DELETE', flowPath(botId, doomed))
    expect((await validateSending(doomed)).report.errors.map((e: { code: string }) => e.code)).toEqual(['unknown_meta_flow'])
  })

  describe('agent tools', () => {
    const agentFlow = (integrationId: string) => ({
      version: 1,
      start: 'help',
      states: {
        help: { agent: { instructions: 'Help', tools: [{ integration_id: integrationId }], exits: [{ when: 'done', to: 'bye' }] } },
        bye: { end: true },
      },
    })
    const insertIntegration = (chatbotId: string, type: string) => {
      const id = newId()
      app.db
        .query('INSERT INTO integrations (id, chatbot_id, type, name, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(id, chatbotId, type, `${type} tools`, new Date().toISOString())
      return id
    }
    const validateAgent = async (integrationId: string) => {
      const id = await createFlow(app, botId, { name: 'Agent', type: 'conversation', flow: agentFlow(integrationId) })
      return (await app.call('POST', `${flowPath(botId, id)}/validate`)).body
    }
    const toolAt = '/states/help/agent/tools/0/integration_id'

    test('an mcp integration of the chatbot is fine', async () => {
      expect(await validateAgent(insertIntegration(botId, 'mcp'))).toEqual({ valid: true, errors: [], warnings: [] })
    })

    test('an id the chatbot has no integration by is an error', async () => {
      expect((await validateAgent(UNKNOWN_ID)).errors).toEqual([
        { path: toolAt, code: 'unknown_tool_integration', message: `"${UNKNOWN_ID}" names no mcp integration of this chatbot` },
      ])
    })

    test('an integration of another type is no tool server', async () => {
      expect((await validateAgent(insertIntegration(botId, 'web'))).errors.map((e: { path: string; code: string }) => [e.path, e.code])).toEqual([
        [toolAt, 'unknown_tool_integration'],
      ])
    })

    test('another chatbot\'s mcp integration is not this chatbot\'s', async () => {
      const otherBot = await createChatbot(app, 'Tools elsewhere')
      expect((await validateAgent(insertIntegration(otherBot, 'mcp'))).errors.map((e: { code: string }) => e.code)).toEqual(['unknown_tool_integration'])
    })
  })
})
