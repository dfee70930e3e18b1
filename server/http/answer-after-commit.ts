import type { WriteBatcher } from '../db/write-batcher.ts'
import type { Logger } from '../support/logger.ts'
import { problemResponse } from './problem.ts'
import { requestContext } from './request-context.ts'

type Fetch = (request: Request) => Response | Promise<Response>

const READS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Holds back a write request's success until what it wrote is committed, so that a 2xx always
 * means stored: a client that got its 201 or 202, or a messaging provider that got its 200,
 * does not send again, and a crash just after the answer must not lose the write. Done once
 * for every route rather than in each: a store that writes directly while a batch is open
 * joins that batch's transaction, so any write route can need it. A batch that is rolled
 * back turns the success into a 503 (the server's fault; sending again is safe for what is
 * idempotent and the only way not to lose the rest). Errors pass at once, and reads and
 * writes that find no open batch are answered as fast as before.
 */
export function answerAfterCommit(fetch: Fetch, batch: WriteBatcher, logger: Logger): Fetch {
  const settled = (request: Request, response: Response, committed: boolean): Response => {
    if (committed) return response
    const requestId = requestContext(request)?.id
    logger.error('answer withheld: the write was rolled back', { request_id: requestId, status_withheld: response.status })
    return problemResponse({
      status: 503,
      code: 'not_stored',
      detail: 'the write could not be committed to the database and nothing of it was kept; send it again, and quote the request id if it keeps failing',
      requestId,
    })
  }
  const afterCommit = (request: Request, response: Response, since: number): Response | Promise<Response> => {
    if (response.status >= 400) return response
    const outcome = batch.outcomeSince(since)
    if (outcome === true) return response
    if (outcome === false) return settled(request, response, false)
    return outcome.then((committed) => settled(request, response, committed))
  }
  return (request) => {
    if (READS.has(request.method)) return fetch(request)
    const since = batch.stamp()
    const answer = fetch(request)
    if (answer instanceof Response) return afterCommit(request, answer, since)
    return answer.then((response) => afterCommit(request, response, since))
  }
}
