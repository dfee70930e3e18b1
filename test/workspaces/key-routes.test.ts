import { expect } from 'bun:test'
import { activePerson, browser } from '../people/support/people-context.ts'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'

const KEYS = '/api-keys'
const K = `/api/dev/v1${KEYS}`

async function setup(app: TestApp) {
  const admin = await activePerson(app, 'ada@acme.io', 'admin')
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  const otherKey = app.otherWorkspaceKey()
  const doomed = await app.call('POST', K, { body: { name: 'To revoke' } })
  const theirs = await app.call('POST', K, { body: { name: 'Theirs' }, key: otherKey })
  // Used once, so that it has a last use to show.
  await app.call('GET', '/api/dev/v1/chatbots', { key: doomed.body.key })
  return { admin, agent, otherKey, doomed: doomed.body as { key: string; prefix: string }, theirs: theirs.body as { key: string; prefix: string } }
}
type Ctx = Awaited<ReturnType<typeof setup>>

scenarios<Ctx>('API keys', setup, [
  {
    name: 'creating a key shows it once, with its prefix and name',
    method: 'POST',
    path: K,
    body: { name: 'Back office' },
    status: 201,
    check: ({ body }) => {
      expect(body).toEqual({ key: expect.stringMatching(/^pk_[0-9A-Za-z]{40}$/), prefix: body.key.slice(0, 11), name: 'Back office', created_at: expect.any(String), revoked_at: null, last_used_at: null })
    },
  },
  {
    name: "the list shows this workspace's keys newest first with their last use, never a key",
    method: 'GET',
    path: K,
    status: 200,
    check: ({ body, text }, c) => {
      expect(body.items.map((k: { name: string }) => k.name)).toEqual(['Back office', 'To revoke', 'test'])
      expect(body.items.find((k: { prefix: string }) => k.prefix === c.doomed.prefix).last_used_at).toMatch(/Z$/)
      expect(text).not.toContain(c.doomed.key)
      expect(text).not.toContain(c.theirs.prefix)
      expect(text).not.toMatch(/[0-9a-f]{64}/)
    },
  },
  {
    name: 'revoking a key answers it revoked',
    method: 'DELETE',
    path: (c) => `${K}/${c.doomed.prefix}`,
    status: 200,
    check: ({ body }, c) => expect(body).toMatchObject({ prefix: c.doomed.prefix, revoked_at: expect.stringMatching(/Z$/) }),
  },
  { name: 'the revoked key is refused from then on', method: 'GET', path: '/api/dev/v1/chatbots', key: (c) => c.doomed.key, status: 401, code: 'unauthorized' },
  { name: "another workspace's key cannot be revoked: 404", method: 'DELETE', path: (c) => `${K}/${c.theirs.prefix}`, status: 404, code: 'not_found' },
  { name: "and that workspace's key still works", method: 'GET', path: '/api/dev/v1/chatbots', key: (c) => c.theirs.key, status: 200 },
  { name: 'an unknown prefix answers 404', method: 'DELETE', path: `${K}/pk_00000000`, status: 404, code: 'not_found' },
  { name: 'a key needs a name', method: 'POST', path: K, body: {}, status: 422, errorPaths: ['/name'] },
  { name: 'a name over 100 characters is refused', method: 'POST', path: K, body: { name: 'x'.repeat(101) }, status: 422, errorPaths: ['/name'] },
  { name: 'unknown fields are refused', method: 'POST', path: K, body: { name: 'x', workspace_id: 'other' }, status: 422, errorPaths: ['/workspace_id'] },
  { name: 'an admin lists keys with the session cookie', method: 'GET', path: K, key: null, headers: (c) => browser(c.admin.cookie), status: 200 },
  { name: 'an agent may not list keys', method: 'GET', path: K, key: null, headers: (c) => browser(c.agent.cookie), status: 403, code: 'forbidden' },
  { name: 'an agent may not create keys', method: 'POST', path: K, key: null, headers: (c) => browser(c.agent.cookie), body: { name: 'mine' }, status: 403, code: 'forbidden' },
  { name: 'without a key the answer is 401', method: 'GET', path: K, key: null, status: 401, code: 'unauthorized' },
])
