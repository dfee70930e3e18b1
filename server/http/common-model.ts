import { t, type TSchema } from 'elysia'
import { unprocessable } from './api-error.ts'

export const Id = t.String({ description: 'ULID', examples: ['01JD3Q3M9Z5W6X7Y8Z9A0B1C2D'] })
export const Timestamp = t.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' })

export const ChatbotParams = t.Object({ chatbot_id: t.String({ description: 'chatbot ULID' }) })

/** Marks a query parameter that is a whole number spelled in a string (see openapi.ts). */
export const WHOLE_NUMBER_PARAMETER = 'x-parley-whole-number'

/** Digits only, no sign, exponent, radix prefix or leading zero: one spelling per number. */
const WHOLE_NUMBER = '^(0|[1-9][0-9]{0,9})$'

/**
 * A whole-number query parameter, strict in spelling and bounded: what `Number()` would also
 * accept (`1e2`, `0x10`, `+5`, `1e19`) is refused, so no odd value reaches a store. The range is
 * checked after the spelling, where the path and wording stay ours.
 */
function queryInteger(name: string, options: { minimum: number; maximum: number; default: number }) {
  const { minimum, maximum } = options
  const message = `must be a whole number from ${minimum} to ${maximum}`
  // Elysia loses the field's path when a query value fails, so the wording carries it.
  const error = { path: `/${name}`, message } as unknown as string
  return t
    .Transform(
      t.String({
        pattern: WHOLE_NUMBER,
        default: String(options.default),
        description: `a whole number from ${minimum} to ${maximum}`,
        error,
        // What the OpenAPI document shows: the number, not its spelling in a URL.
        [WHOLE_NUMBER_PARAMETER]: { type: 'integer', minimum, maximum, default: options.default },
      }),
    )
    .Decode((spelled) => {
      const value = Number(spelled)
      if (value < minimum || value > maximum) throw unprocessable('validation_failed', `the query string is invalid: ${name} ${message}`, [{ path: `/${name}`, message }])
      return value
    })
    .Encode((value) => String(value))
}

export const PageQuery = t.Object({
  limit: queryInteger('limit', { minimum: 1, maximum: 200, default: 50 }),
  offset: queryInteger('offset', { minimum: 0, maximum: 1_000_000_000, default: 0 }),
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
