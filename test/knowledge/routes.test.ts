import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { type TestApp, testApp } from '../support/test-app.ts'

const MANUAL = `# Acme help center

Welcome to Acme. This page answers what customers ask most.

## Refunds

Refunds go back to the card you paid with. A refund takes five working days once the parcel is back.

## Shipping

Orders ship within two days, worldwide. Tracking numbers arrive by e-mail.
`

let app: TestApp
let chatbot: string
const base = () => `/api/dev/v1/chatbots/${chatbot}/knowledge`

/** The source once the background indexer is done with it. */
async function settledSource(id: string, path = base()) {
  for (let tries = 0; tries < 200; tries++) {
    const { body } = await app.call('GET', `${path}/sources/${id}`)
    if (body.status === 'ready' || body.status === 'failed') return body
    await Bun.sleep(10)
  }
  throw new Error(`source ${id} was not indexed`)
}

beforeAll(async () => {
  app = testApp()
  chatbot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Acme' } })).body.id
})
afterAll(() => app.close())

describe('knowledge sources through the developer API', () => {
  test('a text source answers 201 queued, is indexed in the background into passages and found by search', async () => {
    const created = await app.call('POST', `${base()}/sources`, { body: { type: 'text', title: 'Help center', text: MANUAL } })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ type: 'text', title: 'Help center', status: 'queued', passages: 0, indexed_at: null, failure: null, size_bytes: Buffer.byteLength(MANUAL) })
    const ready = await settledSource(created.body.id)
    expect(ready).toMatchObject({ status: 'ready', passages: 3, text: MANUAL })
    expect(Date.parse(ready.indexed_at)).toBeGreaterThan(0)

    const found = await app.call('POST', `${base()}/search`, { body: { query: 'How long does a refund take?' } })
    expect(found.status).toBe(200)
    expect(found.body.items[0]).toEqual({
      source_id: created.body.id,
      title: 'Help center',
      heading: 'Acme help center › Refunds',
      anchor: 'refunds',
      passage: 1,
      text: 'Refunds go back to the card you paid with. A refund takes five working days once the parcel is back.',
      score: expect.any(Number),
    })
    const listed = await app.call('GET', `${base()}/sources`)
    expect(listed.body.total).toBe(1)
    expect(listed.body.items[0]).not.toHaveProperty('text')
  })

  test('a question-answer pair is one passage titled by its question', async () => {
    const created = await app.call('POST', `${base()}/sources`, { body: { type: 'qa', question: 'Do you deliver on Sundays?', answer: 'No, deliveries run Monday to Saturday.' } })
    expect(created.status).toBe(201)
    expect(await settledSource(created.body.id)).toMatchObject({ status: 'ready', passages: 1, title: 'Do you deliver on Sundays?', question: 'Do you deliver on Sundays?', answer: 'No, deliveries run Monday to Saturday.' })
    const found = await app.call('POST', `${base()}/search`, { body: { query: 'sunday delivery', limit: 1 } })
    expect(found.body.items).toEqual([expect.objectContaining({ source_id: created.body.id, title: 'Do you deliver on Sundays?', heading: '', text: 'No, deliveries run Monday to Saturday.' })])
  })

  test('a refresh queues the source again and it comes back ready; a delete takes its passages out of search', async () => {
    const created = await app.call('POST', `${base()}/sources`, { body: { type: 'text', title: 'Returns', text: 'Parcels are returned with the prepaid label in the box.' } })
    await settledSource(created.body.id)
    const refreshed = await app.call('POST', `${base()}/sources/${created.body.id}/refresh`)
    expect(refreshed.status).toBe(202)
    expect(refreshed.body).toMatchObject({ id: created.body.id, status: 'queued', passages: 1 })
    expect(await settledSource(created.body.id)).toMatchObject({ status: 'ready', passages: 1 })
    expect((await app.call('POST', `${base()}/search`, { body: { query: 'prepaid label' } })).body.items).toHaveLength(1)

    expect((await app.call('DELETE', `${base()}/sources/${created.body.id}`)).status).toBe(204)
    expect((await app.call('GET', `${base()}/sources/${created.body.id}`)).status).toBe(404)
    expect((await app.call('DELETE', `${base()}/sources/${created.body.id}`)).status).toBe(404)
    expect((await app.call('POST', `${base()}/search`, { body: { query: 'prepaid label' } })).body.items).toEqual([])
  })

  test.each([
    ['a text without its text', { type: 'text', title: 't' }, [{ path: '/text', message: 'is required for a text source' }]],
    ['a pair without its answer, with a title', { type: 'qa', question: 'q?', title: 't' }, [{ path: '/answer', message: 'is required for a qa source' }, { path: '/title', message: 'is not a field of a qa source' }]],
    ['an unknown type', { type: 'pdf', title: 't', text: 'x' }, [{ path: '/type', message: 'must be one of: "text", "qa"' }]],
    ['a NUL character', { type: 'text', title: 't', text: 'a\u0000b' }, [{ path: '/text', message: 'must not contain the NUL character (U+0000)' }]],
    ['a text of punctuation only', { type: 'text', title: 't', text: '--- *** ---' }, [{ path: '/text', message: 'has no word to index (letters or digits)' }]],
    ['a title with a line break', { type: 'text', title: 'a\nb', text: 'x' }, [{ path: '/title', message: expect.stringContaining('must not contain control characters') }]],
    ['a text past 1,000,000 characters', { type: 'text', title: 't', text: 'x'.repeat(1_000_001) }, [{ path: '/text', message: 'must be at most 1000000 characters' }]],
    ['an unknown field', { type: 'text', title: 't', text: 'x', url: 'http://example.com' }, [{ path: '/url', message: 'is not an allowed field' }]],
  ])('%s is a 422 naming the field, and nothing is stored', async (_, body, errors) => {
    const before = (await app.call('GET', `${base()}/sources`)).body.total
    const answer = await app.call('POST', `${base()}/sources`, { body })
    expect(answer.status).toBe(422)
    expect(answer.headers.get('content-type')).toContain('application/problem+json')
    expect(answer.body.errors).toEqual(errors)
    expect((await app.call('GET', `${base()}/sources`)).body.total).toBe(before)
  })

  test('a body past 8 MB is a 413 before it is read', async () => {
    const answer = await app.call('POST', `${base()}/sources`, { rawBody: `{"type":"text","title":"t","text":"${'x'.repeat(8 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } })
    expect(answer.status).toBe(413)
  })

  test('searches are checked: a query with no word, an empty query, a limit out of range', async () => {
    for (const [body, path] of [
      [{ query: '?!' }, '/query'],
      [{ query: '' }, '/query'],
      [{ query: 'x'.repeat(1001) }, '/query'],
      [{ query: 'refund', limit: 0 }, '/limit'],
      [{ query: 'refund', limit: 51 }, '/limit'],
    ] as const) {
      const answer = await app.call('POST', `${base()}/search`, { body })
      expect(answer.status).toBe(422)
      expect(answer.body.errors[0].path).toBe(path)
    }
  })

  test('a chatbot at its limit of sources refuses another with 409 knowledge_full', async () => {
    const full = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Full' } })).body.id
    const at = new Date().toISOString()
    const rows = Array.from({ length: 1000 }, (_, i) => `('K${i}', '${full}', 'qa', 'q${i}', 'a', 2, 'ready', '${at}', '${at}')`).join(',')
    app.db.exec(`INSERT INTO knowledge_sources (id, chatbot_id, type, title, content, size_bytes, status, created_at, updated_at) VALUES ${rows}`)
    const answer = await app.call('POST', `/api/dev/v1/chatbots/${full}/knowledge/sources`, { body: { type: 'qa', question: 'one more?', answer: 'no' } })
    expect(answer.status).toBe(409)
    expect(answer.body.code).toBe('knowledge_full')
  })

  test("another workspace's chatbot is 404 on every route, and its key sees nothing", async () => {
    const other = app.otherWorkspaceKey()
    const id = (await app.call('GET', `${base()}/sources`)).body.items[0].id
    const calls: [string, string, unknown?][] = [
      ['GET', `${base()}/sources`],
      ['POST', `${base()}/sources`, { type: 'qa', question: 'q?', answer: 'a' }],
      ['GET', `${base()}/sources/${id}`],
      ['POST', `${base()}/sources/${id}/refresh`],
      ['DELETE', `${base()}/sources/${id}`],
      ['POST', `${base()}/search`, { query: 'refund' }],
    ]
    for (const [method, path, body] of calls) {
      const answer = await app.call(method, path, { key: other, body })
      expect([method, path, answer.status, answer.body.detail]).toEqual([method, path, 404, 'chatbot not found'])
    }
    expect((await app.call('GET', `${base()}/sources/${id}`)).status).toBe(200)
    // A source id of this chatbot's, asked under another chatbot of the same workspace, is not found either.
    const sibling = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Sibling' } })).body.id
    expect((await app.call('GET', `/api/dev/v1/chatbots/${sibling}/knowledge/sources/${id}`)).status).toBe(404)
    expect((await app.call('POST', `/api/dev/v1/chatbots/${sibling}/knowledge/search`, { body: { query: 'refund' } })).body.items).toEqual([])
  })
})
