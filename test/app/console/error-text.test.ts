import { describe, expect, test } from 'bun:test'
import { ApiError } from '../../../app/src/api.ts'
import { errorText } from '../../../app/src/console/error-text.ts'

const reason = 'points to 127.0.0.1, a loopback address; Parley does not send requests to private or local addresses. An operator can allow it by adding "127.0.0.1" to PARLEY_OUTBOUND_ALLOW'

describe("a refusal as a console screen shows it", () => {
  test("a field's reason that the detail already says is said once", () => {
    // What the server answers to an LLM base URL on a loopback address (invalidField).
    const refused = new ApiError(422, 'validation_failed', `llm.base_url ${reason}`, { errors: [{ path: '/llm/base_url', message: reason }] })
    const shown = errorText(refused)
    expect(shown.split(reason).length - 1).toBe(1)
    expect(shown).toBe(`llm.base_url ${reason}`)
  })

  test('field errors the detail does not say are listed after it', () => {
    const refused = new ApiError(422, 'flow_invalid', 'the draft has 2 validation errors; fix them to run it', {
      errors: [
        { path: '/states/a/next', message: 'names no state' },
        { path: '', message: 'start is missing' },
      ],
    })
    expect(errorText(refused)).toBe('the draft has 2 validation errors; fix them to run it (/states/a/next: names no state; (body): start is missing)')
  })

  test('a schema refusal that lists every field in its detail is not repeated', () => {
    const refused = new ApiError(422, 'validation_failed', 'the request body is invalid: url must be an absolute URL; name must not be empty', {
      errors: [
        { path: '/url', message: 'must be an absolute URL' },
        { path: '/name', message: 'must not be empty' },
      ],
    })
    expect(errorText(refused)).toBe('the request body is invalid: url must be an absolute URL; name must not be empty')
  })
})
