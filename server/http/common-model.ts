import { t, type TSchema } from 'elysia'

export const Id = t.String({ description: 'ULID', examples: ['01JD3Q3M9Z5W6X7Y8Z9A0B1C2D'] })
export const Timestamp = t.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' })

export const ChatbotParams = t.Object({ chatbot_id: t.String({ description: 'chatbot ULID' }) })

function queryInteger(name: string, options: { minimum: number; maximum?: number; default: number }) {
  const range = options.maximum === undefined ? `at least ${options.minimum}` : `from ${options.minimum} to ${options.maximum}`
  // Elysia loses the field's path when a coerced query value fails, so the wording carries it.
  const error = { path: `/${name}`, message: `must be a whole number ${range}` } as unknown as string
  return t.Integer({ ...options, error })
}

export const PageQuery = t.Object({
  limit: queryInteger('limit', { minimum: 1, maximum: 200, default: 50 }),
  offset: queryInteger('offset', { minimum: 0, default: 0 }),
})

export interface Page {
  limit: number
  offset: number
}

export interface PageOf<T> {
  items: T[]
  total: number
}

export const listOf = <T extends TSchema>(item: T) =>
  t.Object({ items: t.Array(item), total: t.Integer({ minimum: 0 }) })

export const Problem = t.Object(
  {
    type: t.String(),
    title: t.String(),
    status: t.Integer(),
    detail: t.String(),
    code: t.String({ description: 'stable snake_case error code' }),
    request_id: t.Optional(t.String()),
    errors: t.Optional(
      t.Array(t.Object({ path: t.String({ description: 'JSON Pointer' }), message: t.String(), code: t.Optional(t.String()) })),
    ),
  },
)
