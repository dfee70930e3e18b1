import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams, PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { CreateFlow, Flow, FlowList, FlowParams, PublishResult, UpdateFlow, ValidationResult } from './model.ts'
import type { FlowService } from './service.ts'

const tags = ['Flows']

export function flowRoutes(auth: Authenticate, flows: FlowService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/flows' })
    .use(auth)
    .get('/', ({ workspaceId, params, query }) => flows.list(workspaceId, params.chatbot_id, query), {
      params: ChatbotParams,
      query: PageQuery,
      response: { 200: FlowList, ...errorResponses(404, 422) },
      detail: { tags, summary: 'List flows', description: 'Newest first; items carry no definition (GET one flow for it).' },
    })
    .post('/', async ({ workspaceId, params, body, status }) => status(201, await flows.create(workspaceId, params.chatbot_id, body)), {
      params: ChatbotParams,
      body: CreateFlow,
      response: { 201: Flow, ...errorResponses(400, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Create a flow',
        description: 'A new flow is a draft; `flow` defaults to {}. The definition is checked by validate and publish, not here.',
      },
    })
    .get('/:flow_id', ({ workspaceId, params }) => flows.get(workspaceId, params.chatbot_id, params.flow_id), {
      params: FlowParams,
      response: { 200: Flow, ...errorResponses(404) },
      detail: { tags, summary: 'Get a flow', description: 'With its definition (the working copy).' },
    })
    .patch('/:flow_id', ({ workspaceId, params, body }) => flows.update(workspaceId, params.chatbot_id, params.flow_id, body), {
      params: FlowParams,
      body: UpdateFlow,
      response: { 200: Flow, ...errorResponses(400, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Update a flow',
        description:
          '`flow` replaces the whole definition. On a published flow this edits the working copy: the flow stays published, ' +
          'conversations keep the live version, and `has_unpublished_changes` is true until the next publish. `type` cannot change.',
      },
    })
    .post('/:flow_id/validate', ({ workspaceId, params }) => flows.validate(workspaceId, params.chatbot_id, params.flow_id), {
      params: FlowParams,
      response: { 200: ValidationResult, ...errorResponses(404) },
      detail: {
        tags,
        summary: 'Validate a flow',
        description: 'Checks the working copy, including what it refers to in the chatbot. Changes nothing.',
      },
    })
    .post('/:flow_id/publish', ({ workspaceId, params }) => flows.publish(workspaceId, params.chatbot_id, params.flow_id), {
      params: FlowParams,
      response: { 200: PublishResult, ...errorResponses(404, 422) },
      detail: {
        tags,
        summary: 'Publish a flow',
        description:
          'Snapshots the working copy as a new live version. A flow with errors is refused (422 `flow_invalid`, with the errors) ' +
          'and stays as it was. Publishing an unchanged published flow answers 200 and creates no version.',
      },
    })
    .delete(
      '/:flow_id',
      async ({ workspaceId, params, status }) => {
        await flows.remove(workspaceId, params.chatbot_id, params.flow_id)
        return status(204, undefined)
      },
      {
        params: FlowParams,
        response: { 204: t.Void(), ...errorResponses(404) },
        detail: {
          tags,
          summary: 'Delete a flow',
          description: 'Drafts and published flows alike, with all their versions. Conversations in it receive no new bot messages.',
        },
      },
    )
}
