import { t } from 'elysia'
import type { ModelFailureKind } from './classify-failure.ts'

export const ModelTestInput = t.Object(
  {
    base_url: t.String({ minLength: 1, maxLength: 2048, description: 'settings being typed: tried without saving them' }),
    model: t.String({ minLength: 1, maxLength: 200 }),
    api_key: t.Optional(
      t.Union([t.String({ minLength: 1, maxLength: 1000 }), t.Null()], {
        description: 'write-only; omitted: the stored key, only when base_url is the stored one (it is never sent elsewhere); null: none',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ base_url: 'https://api.openai.com/v1', model: 'gpt-4o-mini' }] },
)
export type ModelTestInput = typeof ModelTestInput.static

export const ModelFailureSchema = t.Object(
  {
    kind: t.Union(
      [
        t.Literal('dns'),
        t.Literal('refused'),
        t.Literal('tls'),
        t.Literal('timeout'),
        t.Literal('blocked_address'),
        t.Literal('unauthorized'),
        t.Literal('not_found'),
        t.Literal('rate_limited'),
        t.Literal('provider_error'),
        t.Literal('bad_request'),
        t.Literal('bad_answer'),
        t.Literal('no_model'),
        t.Literal('no_answer'),
      ],
      { description: 'what went wrong, for a person to act on (docs/agents.md)' },
    ),
    message: t.String({ description: "Parley's own words: never the provider's text, never a secret" }),
    http_status: t.Union([t.Integer(), t.Null()], { description: "the status of the provider's answer, if any" }),
  },
  { description: 'why the model could not be used' },
)

export const ModelTestResult = t.Union(
  [
    t.Object({
      ok: t.Literal(true),
      model: t.String(),
      answer: t.Union([t.String(), t.Null()], { description: 'what the model wrote (cut to 200 characters); null when it only called the offered tool' }),
      usage: t.Union([t.Object({ prompt_tokens: t.Integer(), completion_tokens: t.Integer(), total_tokens: t.Integer() }), t.Null()]),
      latency_ms: t.Number({ description: 'the whole call, streamed to its end' }),
    }),
    t.Object({ ok: t.Literal(false), failure: ModelFailureSchema, latency_ms: t.Number() }),
  ],
  {
    examples: [
      { ok: true, model: 'gpt-4o-mini', answer: 'OK', usage: { prompt_tokens: 61, completion_tokens: 1, total_tokens: 62 }, latency_ms: 412.3 },
      { ok: false, failure: { kind: 'unauthorized', message: "the provider refused Parley's credentials (HTTP 401): no API key is set; most hosted providers need one", http_status: 401 }, latency_ms: 88.1 },
    ],
  },
)
export type ModelTestResult = typeof ModelTestResult.static

// The schema names every kind the classifier gives, and no other.
type SchemaKinds = (typeof ModelFailureSchema.static)['kind']
const everyKind: [SchemaKinds] extends [ModelFailureKind] ? ([ModelFailureKind] extends [SchemaKinds] ? true : never) : never = true
void everyKind
