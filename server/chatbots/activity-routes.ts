import { Elysia } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { ChatbotActivity } from './activity-model.ts'
import type { ActivityService } from './activity-service.ts'

export function activityRoutes(auth: Authenticate, activity: ActivityService) {
  return new Elysia({ prefix: '/chatbots' })
    .use(auth)
    .get('/:chatbot_id/activity', async ({ workspaceId, params }) => activity.of(workspaceId, params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: ChatbotActivity, ...errorResponses(404) },
      detail: {
        tags: ['Chatbots'],
        summary: "A chatbot's activity",
        description: 'Conversations started per UTC day over the last 30 days (today last, empty days as 0) and how many conversations wait in handoff now.',
      },
    })
}
