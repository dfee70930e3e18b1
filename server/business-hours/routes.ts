import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { errorResponses } from '../http/error-responses.ts'
import { BusinessHoursAnswer, BusinessHoursBody, ChatbotParams } from './model.ts'
import type { BusinessHoursService } from './service.ts'

const tags = ['Business hours']

/** A chatbot's business hours: read by anyone of the workspace, set and removed by an admin (or an API key). */
export function businessHoursRoutes(auth: Authenticate, hours: BusinessHoursService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/business-hours' })
    .use(auth)
    .get('/', (caller) => hours.get(caller, caller.params.chatbot_id), {
      params: ChatbotParams,
      response: { 200: BusinessHoursAnswer, ...errorResponses(404) },
      detail: { tags, summary: "A chatbot's business hours", description: 'hours null: none set, always open; open_now: whether it is within them now.' },
    })
    .put('/', (caller) => hours.put(caller, caller.params.chatbot_id, caller.body), {
      params: ChatbotParams,
      body: BusinessHoursBody,
      response: { 200: BusinessHoursAnswer, ...errorResponses(400, 403, 404, 413, 415, 422) },
      detail: {
        tags,
        summary: "Set a chatbot's business hours",
        description:
          'An IANA time zone, open spans per weekday (local wall-clock time: a span keeps its hours across daylight-saving changes), holidays closed all day. Outside them a handoff says so (closed_text) and the widget asks for an e-mail; a flow branches on them with `business_hours`.',
      },
    })
    .delete(
      '/',
      async (caller) => {
        await hours.remove(caller, caller.params.chatbot_id)
        return caller.status(204, undefined)
      },
      { params: ChatbotParams, response: { 204: t.Void(), ...errorResponses(400, 403, 404) }, detail: { tags, summary: 'Remove business hours (always open)' } },
    )
}
