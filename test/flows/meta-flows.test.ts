import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { testApp, type TestApp } from '../support/test-app.ts'
import { createChatbot, createFlow, flowPath, flowsPath, publish } from './flow-fixtures.ts'

const examples = JSON.parse(readFileSync(join(import.meta.dir, '../fixtures/whatsapp-flows/flows-v6_3.json'), 'utf8'))
const chipsSelector = examples.chips_selector

/** A valid WhatsApp Flow JSON document of about `bytes` bytes: 100 chained screens of long texts. */
function largeMetaFlow(bytes: number) {
  const screens = 100
  const textsPerScreen = 49
  const words = Math.ceil(bytes / (screens * textsPerScreen * 12))
  const ids = Array.from({ length: screens }, (_, i) => `STEP_${String.fromCharCode(65 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`)
  return {
    version: '7.0',
    screens: ids.map((id, i) => {
      const last = i === screens - 1
      const texts = Array.from({ length: textsPerScreen }, (_, j) => ({ type: 'TextBody', text: `${j}: ${'lorem ipsum '.repeat(words)}`.trim() }))
      const footer = last
        ? { type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload: {} } }
        : { type: 'Footer', label: 'Next', 'on-click-action': { name: 'navigate', next: { type: 'screen', name: ids[i + 1] }, payload: {} } }
      return { id, title: `Step ${i + 1}`, ...(last && { terminal: true, success: true }), layout: { type: 'SingleColumnLayout', children: [...texts, footer] } }
    }),
  }
}

describe('meta flows through the API', () => {
  let app: TestApp
  let botId: string
  beforeAll(async () => {
    app = testApp()
    botId = await createChatbot(app, 'WhatsApp')
  })
  afterAll(() => app.close())

  test('a valid WhatsApp Flow JSON document validates and publishes', async () => {
    const id = await createFlow(app, botId, { name: 'Chips', type: 'meta', flow: chipsSelector })
    expect((await app.call('POST', `${flowPath(botId, id)}/validate`)).body).toEqual({ valid: true, errors: [], warnings: [] })
    const published = await publish(app, botId, id)
    expect(published.status).toBe(200)
    expect((await app.services.flows.publishedSnapshot(id))).toMatchObject({ type: 'meta', version: 1, definition: chipsSelector })
  })

  test('an invalid one is reported with the provider\'s codes and cannot be published', async () => {
    const duplicate = structuredClone(chipsSelector)
    duplicate.screens.push(structuredClone(duplicate.screens[0]))
    const id = await createFlow(app, botId, { name: 'Twice', type: 'meta', flow: duplicate })
    const validated = await app.call('POST', `${flowPath(botId, id)}/validate`)
    expect(validated.body.valid).toBe(false)
    expect(validated.body.errors).toContainEqual({ path: '/screens/1/id', code: 'DUPLICATE_SCREEN_IDS', message: expect.any(String) })
    const refused = await publish(app, botId, id)
    expect(refused.status).toBe(422)
    expect(refused.body.code).toBe('flow_invalid')
    expect(refused.body.errors).toEqual(validated.body.errors)
    expect((await app.call('GET', flowPath(botId, id))).body.status).toBe('draft')
  })

  test('an empty meta flow, as created without a definition, is invalid', async () => {
    const id = await createFlow(app, botId, { name: 'Empty', type: 'meta' })
    const validated = await app.call('POST', `${flowPath(botId, id)}/validate`)
    expect(validated.body.valid).toBe(false)
    expect(validated.body.errors.map((e: { code: string }) => e.code)).toContain('MISSING_FLOW_JSON_VERSION')
  })

  test('a document of about 5 MB is accepted, validated and published', async () => {
    const document = largeMetaFlow(5 * 1024 * 1024)
    const size = JSON.stringify(document).length
    expect(size).toBeGreaterThan(5 * 1024 * 1024)
    expect(size).toBeLessThan(6 * 1024 * 1024)
    const created = await app.call('POST', flowsPath(botId), { body: { name: 'Large', type: 'meta', flow: document } })
    expect(created.status).toBe(201)
    const validated = await app.call('POST', `${flowPath(botId, created.body.id)}/validate`)
    expect(validated.body).toEqual({ valid: true, errors: [], warnings: [] })
    expect((await publish(app, botId, created.body.id)).status).toBe(200)
  })
})
