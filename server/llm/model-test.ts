import type { StoredLlmSettings } from './stored-llm-settings.ts'
import { ApiError, invalidField } from '../http/api-error.ts'
import { pinnedFetch } from '../mcp/pinned-fetch.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { callModel } from './call-model.ts'
import { classifyModelFailure, watchedFetch } from './classify-failure.ts'
import type { ModelTestInput, ModelTestResult } from './model-test-model.ts'
import type { ChatRequestBody } from './wire-format.ts'

export interface ModelTestDeps {
  /** The chatbot's stored settings (the key in clear), or null; throws 404 for a chatbot not of the workspace. */
  settingsOf(workspaceId: string, chatbotId: string): StoredLlmSettings | null
  outbound: Pick<OutboundUrlPolicy, 'checkOutboundUrl' | 'resolveAndCheck'>
  /** As agent runs wait: until the answer starts, and between two streamed chunks. */
  timeoutMs: number
  /** Extra trusted certificates (tests). */
  ca?: string
}

export type ModelTest = ReturnType<typeof modelTest>

const ANSWER_SHOWN = 200

/** What the test sends: what an agent run sends, small (streamed, a tool offered), so a model that cannot take tools fails here too. */
const testBody = (model: string): ChatRequestBody => ({
  model,
  messages: [
    { role: 'system', content: 'This is a connection test from Parley. Answer with the single word OK.' },
    { role: 'user', content: 'Say OK.' },
  ],
  stream: true,
  stream_options: { include_usage: true },
  tools: [{ type: 'function', function: { name: 'parley_connection_test', description: 'Never needed: offered only to check that this model takes tools.', parameters: { type: 'object', properties: {} } } }],
  tool_choice: 'auto',
})

/**
 * The model settings test: one small call to the saved settings, or to those a person is
 * typing (never saved here), through the outbound address policy's pinned fetch; a failure is
 * classified as the MCP connection test classifies its own.
 */
export function modelTest({ settingsOf, outbound, timeoutMs, ca }: ModelTestDeps) {
  /** The endpoint to try: the typed settings (the stored key only for its own base URL) or the saved ones. */
  function endpointOf(workspaceId: string, chatbotId: string, input: ModelTestInput | undefined) {
    const stored = settingsOf(workspaceId, chatbotId)
    if (!input) {
      if (!stored) throw new ApiError(409, 'no_model', 'the chatbot has no model set: send base_url and model to try them, or save them first (PATCH /chatbots/{id} with llm)')
      return { baseUrl: stored.base_url, model: stored.model, apiKey: stored.api_key }
    }
    const checked = outbound.checkOutboundUrl(input.base_url)
    // An address the policy refuses is the test's answer (blocked_address); a URL that is not one is the request's mistake.
    if (!checked.ok && !isWebUrl(input.base_url)) throw invalidField('/base_url', checked.reason)
    const baseUrl = checked.ok ? checked.url.href.replace(/\/+$/, '') : input.base_url
    const apiKey = input.api_key !== undefined ? input.api_key : stored?.base_url === baseUrl ? stored.api_key : null
    return { baseUrl, model: input.model.trim(), apiKey }
  }

  return {
    async test(workspaceId: string, chatbotId: string, input?: ModelTestInput): Promise<ModelTestResult> {
      const endpoint = endpointOf(workspaceId, chatbotId, input)
      const started = performance.now()
      const watched = watchedFetch(pinnedFetch({ policy: outbound, ca, note: {} }))
      const outcome = await callModel({ baseUrl: endpoint.baseUrl, apiKey: endpoint.apiKey }, testBody(endpoint.model), { fetch: watched.fetch, timeoutMs })
      const latency_ms = Math.round((performance.now() - started) * 10) / 10
      if (outcome.kind === 'answer') {
        const text = outcome.answer.content?.trim() || null
        return { ok: true, model: endpoint.model, answer: text && text.length > ANSWER_SHOWN ? `${text.slice(0, ANSWER_SHOWN)}…` : text, usage: outcome.answer.usage, latency_ms }
      }
      const failure = classifyModelFailure({ outcome, note: watched.note, endpoint: { baseUrl: endpoint.baseUrl, model: endpoint.model, hasKey: Boolean(endpoint.apiKey) }, timeoutMs })
      return { ok: false, failure, latency_ms }
    },
  }
}

/** An http(s) URL without credentials: what the policy refuses of it is its address. */
function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
  } catch {
    return false
  }
}
