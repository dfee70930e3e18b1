import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { FlowParams } from './model.ts'
import { errorResponses } from '../http/error-responses.ts'
import type { DraftRunner } from './draft-run.ts'
import { DraftRun, DraftRunResult } from './draft-run-model.ts'
import type { FlowService } from './service.ts'
import { FlowVersion, FlowVersionList, FlowVersionParams } from './version-model.ts'

const tags = ['Flows']

/** What an editor of flows needs beside CRUD: published versions to compare and restore, and a test run of the draft. */
export function flowEditorRoutes(auth: Authenticate, flows: FlowService, drafts: DraftRunner) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/flows/:flow_id' })
    .use(auth)
    .get('/versions', ({ workspaceId, params }) => flows.versions(workspaceId, params.chatbot_id, params.flow_id), {
      params: FlowParams,
      response: { 200: FlowVersionList, ...errorResponses(404) },
      detail: { tags, summary: "List a flow's published versions", description: 'Newest first, without definitions. A draft has none.' },
    })
    .get('/versions/:version', ({ workspaceId, params }) => flows.version(workspaceId, params.chatbot_id, params.flow_id, params.version), {
      params: FlowVersionParams,
      response: { 200: FlowVersion, ...errorResponses(404, 422) },
      detail: {
        tags,
        summary: 'Get a published version',
        description: 'With its definition. To restore it, PATCH the flow with this `flow`: it becomes the working copy, and publishing makes it live as a new version.',
      },
    })
    .post('/test-run', ({ workspaceId, params, body }) => drafts.run(workspaceId, params.chatbot_id, params.flow_id, body), {
      params: FlowParams,
      body: DraftRun,
      response: { 200: DraftRunResult, ...errorResponses(400, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Run the draft of a flow',
        description:
          'One input through the real engine on the working copy (or the `flow` sent), from the `state` the previous run answered. Stores nothing: ' +
          'no conversation, contact or message; live conversations are untouched. An LLM agent state runs against the chatbot\'s model and tools, marked as a test (`agent`), ' +
          'on the `history` sent; its exit or failure resumes the draft as in a live conversation. ' +
          'A draft with validation errors is refused (422 `flow_invalid`).',
      },
    })
}
