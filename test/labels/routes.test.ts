import { expect } from 'bun:test'
import { scenarios } from '../support/scenarios.ts'
import { DESK, type DeskCtx, deskContext } from '../desk/support/desk-context.ts'

const LABELS = '/api/dev/v1/labels'
const onConversation = (conversationId: string, labelId = '') => `${DESK}/conversations/${conversationId}/labels${labelId ? `/${labelId}` : ''}`
const onContact = (contactId: string, labelId = '') => `${DESK}/contacts/${contactId}/labels${labelId ? `/${labelId}` : ''}`
const names = (body: { items: { name: string }[] }) => body.items.map((item) => item.name)
const ids = (body: { items: { id: string }[] }) => body.items.map((item) => item.id)

type Ctx = DeskCtx & { vip: string; billing: string; otherLabel: string }

async function labelsContext(app: Parameters<typeof deskContext>[0]): Promise<Ctx> {
  const desk = await deskContext(app)
  const other = await app.call('POST', LABELS, { key: desk.otherKey, body: { name: 'Theirs' } })
  return { ...desk, vip: '', billing: '', otherLabel: other.body.id }
}

scenarios<Ctx>('labels: the set, on conversations and contacts, in the desk list and search', labelsContext, [
  {
    name: 'an admin adds a label with a colour',
    method: 'POST',
    path: LABELS,
    key: null,
    headers: (c) => c.asAdmin,
    body: { name: 'VIP', color: 'purple' },
    status: 201,
    check: ({ body }, c) => {
      expect(body).toEqual({ id: expect.any(String), name: 'VIP', color: 'purple', created_at: expect.any(String), updated_at: null })
      c.vip = body.id
    },
  },
  {
    name: 'a label without a colour is grey',
    method: 'POST',
    path: LABELS,
    body: { name: '  billing ' },
    status: 201,
    check: ({ body }, c) => {
      expect(body).toMatchObject({ name: 'billing', color: 'grey' })
      c.billing = body.id
    },
  },
  { name: 'a name is unique whatever its case', method: 'POST', path: LABELS, body: { name: 'vip' }, status: 409, code: 'label_taken', errorPaths: ['/name'] },
  { name: 'a colour outside the palette is refused', method: 'POST', path: LABELS, body: { name: 'x', color: 'red;background:url(x)' }, status: 422, errorPaths: ['/color'] },
  { name: 'a name with a control character is refused', method: 'POST', path: LABELS, body: { name: 'a\u001b[2Jb' }, status: 422, errorPaths: ['/name'] },
  { name: 'a blank name is refused', method: 'POST', path: LABELS, body: { name: '   ' }, status: 422, errorPaths: ['/name'] },
  { name: 'a name longer than 40 characters is refused', method: 'POST', path: LABELS, body: { name: 'x'.repeat(41) }, status: 422, errorPaths: ['/name'] },
  { name: 'an unknown field is refused', method: 'POST', path: LABELS, body: { name: 'x', colour: 'red' }, status: 422 },
  { name: 'an agent may not change the set', method: 'POST', path: LABELS, key: null, headers: (c) => c.asAgent, body: { name: 'x' }, status: 403, code: 'forbidden' },
  {
    name: 'the set is listed by name, per workspace (an agent reads it)',
    method: 'GET',
    path: LABELS,
    key: null,
    headers: (c) => c.asAgent,
    status: 200,
    check: ({ body }) => expect(names(body)).toEqual(['billing', 'VIP']),
  },
  {
    name: 'an agent labels a conversation; it answers the labels it carries',
    method: 'PUT',
    path: (c) => onConversation(c.first.id, c.vip),
    key: null,
    headers: (c) => c.asAgent,
    status: 200,
    check: ({ body }) => expect(body.items).toEqual([{ id: expect.any(String), name: 'VIP', color: 'purple', created_at: expect.any(String), updated_at: null }]),
  },
  { name: 'labelling again changes nothing', method: 'PUT', path: (c) => onConversation(c.first.id, c.vip), status: 200, check: ({ body }) => expect(names(body)).toEqual(['VIP']) },
  { name: 'a second label', method: 'PUT', path: (c) => onConversation(c.first.id, c.billing), status: 200, check: ({ body }) => expect(names(body)).toEqual(['billing', 'VIP']) },
  { name: "another workspace's label is not found", method: 'PUT', path: (c) => onConversation(c.first.id, c.otherLabel), status: 404 },
  { name: "another workspace's conversation is not found", method: 'PUT', path: (c) => onConversation(c.other.id, c.vip), status: 404 },
  { name: "another workspace cannot label ours with its own label", method: 'PUT', path: (c) => onConversation(c.first.id, c.otherLabel), key: (c) => c.otherKey, status: 404 },
  { name: "another workspace cannot read our conversation's labels", method: 'GET', path: (c) => onConversation(c.first.id), key: (c) => c.otherKey, status: 404 },
  { name: "a conversation's labels are read", method: 'GET', path: (c) => onConversation(c.first.id), status: 200, check: ({ body }) => expect(names(body)).toEqual(['billing', 'VIP']) },
  { name: 'a contact is labelled', method: 'PUT', path: (c) => onContact(c.second.contactId, c.vip), key: null, headers: (c) => c.asAgent, status: 200, check: ({ body }) => expect(names(body)).toEqual(['VIP']) },
  { name: "another workspace's contact is not found", method: 'PUT', path: (c) => onContact(c.other.contactId, c.vip), status: 404 },
  {
    name: 'the desk list shows each conversation’s labels',
    method: 'GET',
    path: `${DESK}/conversations?view=open`,
    status: 200,
    check: ({ body }, c) => {
      const first = body.items.find((item: { id: string }) => item.id === c.first.id)
      expect(first.labels).toEqual([{ id: c.billing, name: 'billing', color: 'grey' }, { id: c.vip, name: 'VIP', color: 'purple' }])
      expect(body.items.find((item: { id: string }) => item.id === c.second.id).labels).toEqual([])
    },
  },
  { name: 'the desk list filters by label', method: 'GET', path: (c) => `${DESK}/conversations?view=open&label_id=${c.billing}`, status: 200, check: ({ body }, c) => expect(ids(body)).toEqual([c.first.id]) },
  { name: "another workspace's label filters to nothing", method: 'GET', path: (c) => `${DESK}/conversations?label_id=${c.vip}`, key: (c) => c.otherKey, status: 200, check: ({ body }) => expect(body.items).toEqual([]) },
  {
    name: "search finds a label by its name's beginning, in any case: its conversations and its contacts'",
    method: 'GET',
    path: `${DESK}/conversations?view=open&q=vi`,
    status: 200,
    check: ({ body }, c) => expect(ids(body)).toEqual([c.second.id, c.first.id]),
  },
  { name: "search does not find another workspace's labels", method: 'GET', path: `${DESK}/conversations?q=theirs`, status: 200, check: ({ body }) => expect(body.items).toEqual([]) },
  {
    name: 'a label is renamed and recoloured',
    method: 'PATCH',
    path: (c) => `${LABELS}/${c.billing}`,
    key: null,
    headers: (c) => c.asAdmin,
    body: { name: 'Billing', color: 'orange' },
    status: 200,
    check: async ({ body }, c) => {
      expect(body).toMatchObject({ name: 'Billing', color: 'orange', updated_at: expect.any(String) })
      expect(names((await c.app.call('GET', onConversation(c.first.id))).body)).toEqual(['Billing', 'VIP'])
    },
  },
  { name: "a rename to another label's name is refused", method: 'PATCH', path: (c) => `${LABELS}/${c.billing}`, body: { name: 'VIP' }, status: 409, code: 'label_taken', errorPaths: ['/name'] },
  { name: "another workspace cannot rename ours", method: 'PATCH', path: (c) => `${LABELS}/${c.billing}`, key: (c) => c.otherKey, body: { name: 'x' }, status: 404 },
  { name: 'a label is taken off', method: 'DELETE', path: (c) => onConversation(c.first.id, c.vip), key: null, headers: (c) => c.asAgent, status: 200, check: ({ body }) => expect(names(body)).toEqual(['Billing']) },
  { name: 'taking off a label it does not carry is 404', method: 'DELETE', path: (c) => onConversation(c.first.id, c.vip), status: 404 },
  { name: "another workspace cannot delete ours", method: 'DELETE', path: (c) => `${LABELS}/${c.billing}`, key: (c) => c.otherKey, status: 404 },
  {
    name: 'a deleted label comes off everything that carried it',
    method: 'DELETE',
    path: (c) => `${LABELS}/${c.billing}`,
    status: 204,
    check: async (_, c) => {
      expect((await c.app.call('GET', onConversation(c.first.id))).body.items).toEqual([])
      expect(names((await c.app.call('GET', LABELS)).body)).toEqual(['VIP'])
    },
  },
])
