import { Problem } from './common-model.ts'

/** The problem+json responses a route can answer with, for its OpenAPI description. */
export function errorResponses(...statuses: number[]): Record<number, typeof Problem> {
  return Object.fromEntries([401, 429, ...statuses].map((status) => [status, Problem]))
}
