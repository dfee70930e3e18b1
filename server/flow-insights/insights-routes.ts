import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { errorResponses } from '../http/error-responses.ts'
import { FlowParams } from '../flows/model.ts'
import type { InsightsService } from './insights-service.ts'
import { FlowInsights, InsightsQuery } from './model.ts'

/** GET .../flows/{flow_id}/insights: what real conversations did in a published version, per state and way. */
export function insightsRoutes(auth: Authenticate, insights: InsightsService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/flows/:flow_id' })
    .use(auth)
    .get('/insights', ({ workspaceId, params, query }) => insights.of(workspaceId, params.chatbot_id, params.flow_id, query), {
      params: FlowParams,
      query: InsightsQuery,
      response: { 200: FlowInsights, ...errorResponses(400, 404, 422) },
      detail: {
        tags: ['Flows'],
        summary: 'What conversations did in a flow',
        description:
          'For a published version (default: the live one) over a period (default: the last 30 days): how often each way between states was taken, ' +
          'and per state how often it was entered and left, how many stopped there (drop-off, or the end), went to a person, or saw the LLM agent fail. ' +
          'A flow never published answers `version: null` and no counts.',
      },
    })
}
