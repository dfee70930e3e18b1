import { afterAll, describe, expect, test } from 'bun:test'
import { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import { testApp } from '../support/test-app.ts'

describe('the conversation flow JSON Schema', () => {
  const app = testApp()
  afterAll(() => app.close())
  const path = '/api/dev/v1/schemas/conversation-flow.json'

  test('is served without an API key, as JSON Schema', async () => {
    const served = await app.call('GET', path, { key: null })
    expect(served.status).toBe(200)
    expect(served.headers.get('content-type')).toBe('application/schema+json')
    expect(served.body).toMatchObject({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: `http://parley.test${path}`,
      title: 'Parley conversation flow, version 1',
      type: 'object',
      required: ['version', 'start', 'states'],
      additionalProperties: false,
    })
  })

  test('is the schema the validator checks against, state name rule included', async () => {
    const { body } = await app.call('GET', path, { key: null })
    const { $schema: _, $id: __, ...schema } = body
    expect(schema).toEqual(JSON.parse(JSON.stringify(ConversationFlow)))
    expect(Object.keys(body.properties.states.patternProperties)).toEqual(['^[A-Za-z_][A-Za-z0-9_-]{0,63}$'])
    expect(body.properties.states.additionalProperties).toBe(false)
  })

  test('is listed in the OpenAPI document as a public route', async () => {
    const { body: doc } = await app.call('GET', '/api/dev/v1/openapi.json', { key: null })
    expect(doc.paths[path].get.security).toEqual([])
    expect(doc.paths['/api/dev/v1/chatbots/{chatbot_id}/flows/{flow_id}/publish'].post.responses['422']).toBeDefined()
  })
})
