import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { errorResponses } from '../http/error-responses.ts'
import {
  CarriedLabels,
  ContactLabelParams,
  ContactParams,
  ConversationLabelParams,
  ConversationParams,
  Label,
  LabelBody,
  LabelList,
  LabelParams,
  LabelPatch,
} from './model.ts'
import type { LabelService } from './service.ts'

const tags = ['Labels']
const PERSON_NOTE = 'Works with the session cookie (a person; changes need Origin) and with an API key.'

/**
 * The workspace's label set at /labels (changes are an admin's), and the labels a
 * conversation or a contact carries at /desk/... (set and taken off by agents too).
 */
export function labelRoutes(auth: Authenticate, labels: LabelService) {
  const set = new Elysia({ prefix: '/labels' })
    .use(auth)
    .get('/', async (caller) => ({ items: await labels.list(caller) }), {
      response: { 200: LabelList },
      detail: { tags, summary: "The workspace's labels", description: `By name. ${PERSON_NOTE}` },
    })
    .post('/', async (caller) => caller.status(201, await labels.create(caller, caller.body)), {
      body: LabelBody,
      response: { 201: Label, ...errorResponses(400, 403, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Add a label',
        description: `Names are unique in the workspace whatever their case (409 label_taken); the colour is grey unless given. An admin's. ${PERSON_NOTE}`,
      },
    })
    .patch('/:label_id', async (caller) => labels.update(caller, caller.params.label_id, caller.body), {
      params: LabelParams,
      body: LabelPatch,
      response: { 200: Label, ...errorResponses(400, 403, 404, 409, 413, 415, 422) },
      detail: { tags, summary: 'Rename a label or change its colour', description: `An admin's. ${PERSON_NOTE}` },
    })
    .delete(
      '/:label_id',
      async (caller) => {
        await labels.remove(caller, caller.params.label_id)
        return caller.status(204, undefined)
      },
      {
        params: LabelParams,
        response: { 204: t.Void(), ...errorResponses(400, 403, 404) },
        detail: { tags, summary: 'Delete a label', description: `It comes off every conversation and contact that carried it. An admin's. ${PERSON_NOTE}` },
      },
    )

  const onConversations = new Elysia({ prefix: '/desk/conversations/:conversation_id/labels' })
    .use(auth)
    .get('/', async (caller) => ({ items: await labels.carried(caller, { kind: 'conversation', id: caller.params.conversation_id }) }), {
      params: ConversationParams,
      response: { 200: CarriedLabels, ...errorResponses(404) },
      detail: { tags, summary: "A conversation's labels", description: PERSON_NOTE },
    })
    .put('/:label_id', async (caller) => ({ items: await labels.attach(caller, { kind: 'conversation', id: caller.params.conversation_id }, caller.params.label_id) }), {
      params: ConversationLabelParams,
      response: { 200: CarriedLabels, ...errorResponses(400, 404, 409) },
      detail: { tags, summary: 'Label a conversation', description: `Setting a label it carries changes nothing. Answers its labels. ${PERSON_NOTE}` },
    })
    .delete('/:label_id', async (caller) => ({ items: await labels.detach(caller, { kind: 'conversation', id: caller.params.conversation_id }, caller.params.label_id) }), {
      params: ConversationLabelParams,
      response: { 200: CarriedLabels, ...errorResponses(400, 404) },
      detail: { tags, summary: 'Take a label off a conversation', description: `404 when it did not carry it. Answers its labels. ${PERSON_NOTE}` },
    })

  const onContacts = new Elysia({ prefix: '/desk/contacts/:contact_id/labels' })
    .use(auth)
    .get('/', async (caller) => ({ items: await labels.carried(caller, { kind: 'contact', id: caller.params.contact_id }) }), {
      params: ContactParams,
      response: { 200: CarriedLabels, ...errorResponses(404) },
      detail: { tags, summary: "A contact's labels", description: PERSON_NOTE },
    })
    .put('/:label_id', async (caller) => ({ items: await labels.attach(caller, { kind: 'contact', id: caller.params.contact_id }, caller.params.label_id) }), {
      params: ContactLabelParams,
      response: { 200: CarriedLabels, ...errorResponses(400, 404, 409) },
      detail: { tags, summary: 'Label a contact', description: `Setting a label it carries changes nothing. Answers its labels. ${PERSON_NOTE}` },
    })
    .delete('/:label_id', async (caller) => ({ items: await labels.detach(caller, { kind: 'contact', id: caller.params.contact_id }, caller.params.label_id) }), {
      params: ContactLabelParams,
      response: { 200: CarriedLabels, ...errorResponses(400, 404) },
      detail: { tags, summary: 'Take a label off a contact', description: `404 when it did not carry it. Answers its labels. ${PERSON_NOTE}` },
    })

  return new Elysia().use(set).use(onConversations).use(onContacts)
}
