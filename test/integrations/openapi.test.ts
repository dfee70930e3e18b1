import { afterAll, describe, expect, test } from 'bun:test'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ChatappIntegration, CreateChatappIntegration, UpdateChatappIntegration } from '../../server/integrations/chatapp-model.ts'
import { CreateMcpIntegration, McpIntegration, UpdateMcpIntegration } from '../../server/integrations/mcp-model.ts'
import {
  CreatedRestApiIntegration,
  CreateRestApiIntegration,
  RestApiIntegration,
  UpdatedRestApiIntegration,
  UpdateRestApiIntegration,
} from '../../server/integrations/rest-api-model.ts'
import { CreateWebIntegration, UpdateWebIntegration, WebIntegration } from '../../server/integrations/web-model.ts'
import { testApp } from '../support/test-app.ts'

const base = '/api/dev/v1/chatbots/{chatbot_id}/integrations'

describe('the integrations in the OpenAPI document', () => {
  const app = testApp()
  afterAll(() => app.close())
  const document = async () => (await app.call('GET', '/api/dev/v1/openapi.json', { key: null })).body

  test('every typed path has POST, GET and PATCH with request and response schemas and examples', async () => {
    const doc = await document()
    for (const type of ['web', 'rest-api', 'chatapp']) {
      const path = doc.paths[`${base}/${type}`]
      expect(Object.keys(path).sort()).toEqual(['get', 'patch', 'post'])
      for (const method of ['post', 'patch']) {
        const body = path[method].requestBody.content['application/json'].schema
        expect(body).toMatchObject({ type: 'object', additionalProperties: false })
        expect(body.examples.length).toBeGreaterThan(0)
      }
      const created = path.post.responses['201'].content['application/json'].schema
      expect(created.properties.type).toEqual({ const: type, type: 'string' })
      expect(created.examples.length).toBeGreaterThan(0)
      expect(path.post.responses['409'].content['application/problem+json']).toBeDefined()
      expect(path.get.responses['200'].content['application/json'].schema.properties.config.type).toBe('object')
      expect(path.post.tags).toEqual(['Integrations'])
    }
  })

  test('required create fields are the spec\'s', async () => {
    const doc = await document()
    const required = (type: string) => doc.paths[`${base}/${type}`].post.requestBody.content['application/json'].schema.required
    expect(required('web')).toEqual(['name'])
    expect(required('rest-api')).toEqual(['webhook_url'])
    expect(required('chatapp')).toEqual(['phone_number_id', 'access_token', 'verify_token'])
  })

  test('the widget_config limits and defaults of the spec are in the web schemas', async () => {
    const doc = await document()
    const stored = doc.paths[`${base}/web`].get.responses['200'].content['application/json'].schema.properties.config.properties.widget_config
    expect(stored.properties.font_size).toMatchObject({ minimum: 12, maximum: 24, default: 13.5 })
    expect(stored.properties.width).toMatchObject({ minimum: 280, maximum: 600, default: 380 })
    expect(stored.properties.height).toMatchObject({ minimum: 400, maximum: 800, default: 600 })
    const input = doc.paths[`${base}/web`].post.requestBody.content['application/json'].schema.properties.widget_config
    expect(input.additionalProperties).toBe(false)
    expect(input.properties.font_size.description).toBe('default: 13.5')
  })

  test('the generic routes and the webhook verification are described', async () => {
    const doc = await document()
    expect(doc.paths[base].get.parameters.map((p: { name: string }) => p.name)).toEqual(['chatbot_id', 'limit', 'offset', 'type'])
    expect(doc.paths[`${base}/{integration_id}`].get.responses['200'].content['application/json'].schema.anyOf).toHaveLength(4)
    expect(Object.keys(doc.paths[`${base}/{integration_id}`].delete.responses)).toContain('204')
    const hook = doc.paths['/hooks/chatapp/{integration_id}'].get
    expect(hook).toMatchObject({ tags: ['Webhooks'], security: [] })
    expect(hook.parameters.map((p: { name: string }) => p.name)).toEqual(['integration_id', 'hub.mode', 'hub.verify_token', 'hub.challenge'])
    expect(Object.keys(hook.responses).sort()).toEqual(['200', '403', '404'])
  })
})

describe('the mcp integrations in the OpenAPI document', () => {
  const app = testApp()
  afterAll(() => app.close())

  test('the collection and each record have their operations, with schemas, examples and errors', async () => {
    const doc = (await app.call('GET', '/api/dev/v1/openapi.json', { key: null })).body
    const collection = doc.paths[`${base}/mcp`]
    const one = doc.paths[`${base}/mcp/{integration_id}`]
    expect(Object.keys(collection).sort()).toEqual(['get', 'post'])
    expect(Object.keys(one).sort()).toEqual(['delete', 'get', 'patch'])
    const create = collection.post.requestBody.content['application/json'].schema
    expect(create).toMatchObject({ type: 'object', additionalProperties: false, required: ['name', 'url'] })
    expect(Object.keys(create.properties).sort()).toEqual(['auth', 'is_active', 'name', 'timeout_ms', 'tools', 'transport', 'url'])
    expect(create.properties.timeout_ms).toMatchObject({ minimum: 1000, maximum: 300_000 })
    expect(create.properties.auth.properties.type.anyOf.map((m: { const: string }) => m.const)).toEqual(['none', 'bearer', 'headers', 'oauth'])
    expect(create.properties.transport.anyOf.map((m: { const: string }) => m.const)).toEqual(['auto', 'streamable-http', 'sse'])
    expect(create.examples.length).toBeGreaterThan(0)
    expect(collection.post.responses['201'].content['application/json'].schema.properties.type).toEqual({ const: 'mcp', type: 'string' })
    expect(collection.post.responses['409'].content['application/problem+json']).toBeDefined()
    expect(collection.get.parameters.map((p: { name: string }) => p.name)).toEqual(['chatbot_id', 'limit', 'offset'])
    expect(collection.get.responses['200'].content['application/json'].schema.properties.items.items.properties.config.properties.auth).toBeDefined()
    expect(one.patch.requestBody.content['application/json'].schema).toMatchObject({ type: 'object', additionalProperties: false })
    expect(one.patch.requestBody.content['application/json'].schema.required).toBeUndefined()
    expect(Object.keys(one.delete.responses)).toContain('204')
    expect(one.get.tags).toEqual(['Integrations'])
  })
})

describe('the examples in the integration schemas', () => {
  const schemas: Record<string, TSchema> = {
    CreateWebIntegration,
    UpdateWebIntegration,
    WebIntegration,
    CreateRestApiIntegration,
    UpdateRestApiIntegration,
    RestApiIntegration,
    CreatedRestApiIntegration,
    UpdatedRestApiIntegration,
    CreateChatappIntegration,
    UpdateChatappIntegration,
    ChatappIntegration,
    CreateMcpIntegration,
    UpdateMcpIntegration,
    McpIntegration,
  }
  test.each(Object.entries(schemas))('%s: every example is valid against its schema', (_, schema) => {
    const examples = (schema as { examples?: unknown[] }).examples ?? []
    expect(examples.length).toBeGreaterThan(0)
    for (const example of examples) {
      expect([...Value.Errors(schema, example)].map((e) => `${e.path} ${e.message}`)).toEqual([])
    }
  })
})
