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

  return new Elysia().use(set).use(carriedRoutes(auth, labels, 'conversation')).use(carriedRoutes(auth, labels, 'contact'))
}

const CARRIERS = {
  conversation: { params: ConversationParams, labelParams: ConversationLabelParams, the: 'a conversation', its: "A conversation's" },
  contact: { params: ContactParams, labelParams: ContactLabelParams, the: 'a contact', its: "A contact's" },
} as const

/** /desk/{conversations|contacts}/{id}/labels: what one conversation or contact carries, set and taken off. */
function carriedRoutes(auth: Authenticate, labels: LabelService, kind: keyof typeof CARRIERS) {
  const { params, labelParams, the, its } = CARRIERS[kind]
  const idParam = `${kind}_id`
  const carrier = (caller: { params: unknown }) => ({ kind, id: (caller.params as Record<string, string>)[idParam] as string })
  const labelOf = (caller: { params: unknown }) => (caller.params as { label_id: string }).label_id
  return new Elysia({ prefix: `/desk/${kind}s/:${idParam}/labels` })
    .use(auth)
    .get('/', async (caller) => ({ items: await labels.carried(caller, carrier(caller)) }), {
      params,
      response: { 200: CarriedLabels, ...errorResponses(404) },
      detail: { tags, summary: `${its} labels`, description: PERSON_NOTE },
    })
    .put('/:label_id', async (caller) => ({ items: await labels.attach(caller, carrier(caller), labelOf(caller)) }), {
      params: labelParams,
      response: { 200: CarriedLabels, ...errorResponses(400, 404, 409) },
      detail: { tags, summary: `Label ${the}`, description: `Setting a label it carries changes nothing. Answers its labels. ${PERSON_NOTE}` },
    })
    .delete('/:label_id', async (caller) => ({ items: await labels.detach(caller, carrier(caller), labelOf(caller)) }), {
      params: labelParams,
      response: { 200: CarriedLabels, ...errorResponses(400, 404) },
      detail: { tags, summary: `Take a label off ${the}`, description: `404 when it did not carry it. Answers its labels. ${PERSON_NOTE}` },
    })
}
