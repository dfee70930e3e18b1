import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import type { ModelTest } from './model-test.ts'
import { ModelTestInput, ModelTestResult } from './model-test-model.ts'

/** POST /chatbots/{id}/llm/test: try the model settings before a visitor meets them. */
export function modelTestRoutes(auth: Authenticate, models: ModelTest) {
  // An empty object is no settings typed: Elysia lets `{}` through an optional body unchecked.
  const typed = (body: unknown) => (body && typeof body === 'object' && Object.keys(body).length > 0 ? (body as ModelTestInput) : undefined)
  return new Elysia({ prefix: '/chatbots/:chatbot_id' }).use(auth).post('/llm/test', ({ workspaceId, params, body }) => models.test(workspaceId, params.chatbot_id, typed(body)), {
    params: ChatbotParams,
    body: t.Optional(ModelTestInput),
    response: { 200: ModelTestResult, ...errorResponses(404, 409, 413, 415, 422) },
    detail: {
      tags: ['Chatbots'],
      summary: 'Test the model settings',
      description:
        'One small call as agent runs make it (streamed, a tool offered), to the saved settings, or to the settings in the body without saving them. 200 either way: ok true with what the model said, or ok false with a classified failure (dns, refused, tls, timeout, blocked_address, unauthorized, not_found, rate_limited, provider_error, bad_request, bad_answer). 409 no_model: nothing saved and nothing sent.',
    },
  })
}
