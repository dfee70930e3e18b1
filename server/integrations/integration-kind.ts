import { type FieldError, unprocessable } from '../http/api-error.ts'
import type { IntegrationRow, IntegrationSettings, TypedIntegrationType } from './model.ts'

/** What a create or a PATCH decided, and any generated secret to show this once. */
export interface KindResult<Revealed> {
  settings: IntegrationSettings
  revealed: Revealed
}

/**
 * One typed integration (web, rest-api, chatapp): how its request becomes stored settings and
 * how a stored row is shown. Pure: no store, no clock, no events (the service does those).
 */
export interface IntegrationKind<Create, Update, Rendered, Revealed extends object = Record<never, never>> {
  type: TypedIntegrationType
  create(input: Create): KindResult<Revealed>
  /** Applies the type's own fields; the service applies `name` and `is_active`. */
  update(current: IntegrationSettings, input: Update): KindResult<Partial<Revealed>>
  render(row: IntegrationRow): Rendered
}

/** Rules a schema cannot express end here as one 422 that lists every offending field. */
export function throwIfInvalid(errors: readonly FieldError[]): void {
  if (errors.length === 0) return
  const detail = errors.map((error) => `${error.path.slice(1).replaceAll('/', '.')} ${error.message}`).join('; ')
  throw unprocessable('validation_failed', `the request body is invalid: ${detail}`, [...errors])
}
