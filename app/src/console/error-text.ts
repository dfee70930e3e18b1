import { ApiError } from '../api.ts'

/**
 * A refusal in one line. The server's detail already names each field and why when it can
 * (a field rule: "llm.base_url points to …"; a schema refusal lists them all), so a field's
 * message is added only when the detail does not say it: once, never twice.
 */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    const fields = Array.isArray(error.body.errors) ? (error.body.errors as { path: string; message: string }[]) : []
    const unsaid = fields.filter((field) => !error.detail.includes(field.message)).map((field) => `${field.path || '(body)'}: ${field.message}`)
    return unsaid.length > 0 ? `${error.detail} (${unsaid.join('; ')})` : error.detail
  }
  return error instanceof Error ? error.message : String(error)
}
