import type { Scenario } from '../../support/scenarios.ts'
import type { TestApp } from '../../support/test-app.ts'

export const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/
export const MISSING_ID = '01ARZ3NDEKTSV4RRFFQ69G5FAV'

/** `/api/dev/v1/chatbots/{botId}/integrations` and what follows it. */
export const integrationsOf = (botId: string, rest = '') => `/api/dev/v1/chatbots/${botId}/integrations${rest}`

export interface IntegrationContext {
  app: TestApp
  /** A chatbot of the first workspace that the rows share. */
  botId: string
  otherKey: string
  /** A chatbot of another workspace. */
  otherBotId: string
  /** A chatbot of the first workspace that no other row has used. */
  fresh: () => string
  /** Values rows hand on to later rows (ids, timestamps, secrets shown once). */
  saved: Record<string, any>
}

export async function integrationContext(app: TestApp, poolSize = 120): Promise<IntegrationContext> {
  const createBot = async (name: string, key?: string) =>
    (await app.call('POST', '/api/dev/v1/chatbots', { body: { name }, key })).body.id as string
  const otherKey = app.otherWorkspaceKey()
  const pool: string[] = []
  for (let i = 0; i < poolSize; i++) pool.push(await createBot(`pool ${i}`))
  return {
    app,
    botId: await createBot('Support'),
    otherKey,
    otherBotId: await createBot('Theirs', otherKey),
    fresh: () => {
      const id = pool.shift()
      if (!id) throw new Error('the chatbot pool is used up; raise poolSize')
      return id
    },
    saved: {},
  }
}

/**
 * Everything logged so far; request lines are written after the response, so wait a moment
 * (the binary writes its lines in batches every 50 ms, then they cross a pipe).
 */
export async function loggedText(app: TestApp): Promise<string> {
  await Bun.sleep(app.target() === 'binary' ? 250 : 5)
  return app.logLines.join('\n')
}

/**
 * A scenario row whose outcome is either a status or, as an array, the error paths a 422
 * `validation_failed` must name.
 */
export function outcomeRow(
  method: string,
  path: (c: IntegrationContext) => string,
  name: string,
  body: unknown,
  outcome: number | string[],
  check?: Scenario<IntegrationContext>['check'],
): Scenario<IntegrationContext> {
  const failing = Array.isArray(outcome)
  return {
    name,
    method,
    path,
    body,
    status: failing ? 422 : outcome,
    code: failing ? 'validation_failed' : undefined,
    errorPaths: failing ? outcome : undefined,
    check,
  }
}
