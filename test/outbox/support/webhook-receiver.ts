/** One request as the receiver saw it. */
export interface Received {
  headers: Record<string, string>
  body: string
  json: any
}

/**
 * What the receiver answers to the next request: a status, 'hang' (never answers; the
 * sender's timeout or shutdown must give up), or a function for anything else.
 */
export type Step = number | 'hang' | ((got: Received) => Response | Promise<Response>)

/**
 * A real HTTP receiver on 127.0.0.1 (a free port) that records every request and answers
 * from a script, then with its default answer (204 unless told otherwise).
 */
export function webhookReceiver() {
  const received: Received[] = []
  const script: Step[] = []
  const waiters: { count: number; resolve: () => void }[] = []
  const releases = new Set<() => void>()
  let otherwise: Step = 204

  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const body = await request.text()
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {}
      const got: Received = { headers: Object.fromEntries(request.headers), body, json }
      received.push(got)
      for (const waiter of waiters.filter((w) => received.length >= w.count)) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
      const step = script.shift() ?? otherwise
      if (step === 'hang') {
        return new Promise<Response>((resolve) => {
          const release = () => resolve(new Response('too late', { status: 200 }))
          releases.add(release)
          request.signal.addEventListener('abort', release)
        })
      }
      if (typeof step === 'function') return step(got)
      return new Response(step >= 200 && step < 300 ? null : `answer ${step}`, { status: step })
    },
  })

  return {
    url: `http://127.0.0.1:${server.port}/hook`,
    port: server.port as number,
    received,
    /** Bodies received so far, parsed. */
    events: () => received.map((r) => r.json),
    /** Queues the answers to the next requests. */
    respond(...steps: Step[]) {
      script.push(...steps)
    },
    /** The answer once the script is used up. */
    otherwise(step: Step) {
      otherwise = step
    },
    /** Resolves once `count` requests have arrived in all (fails after a while rather than hang the suite). */
    waitFor(count: number, guardMs = 5_000): Promise<void> {
      if (received.length >= count) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const guard = setTimeout(() => reject(new Error(`the receiver got ${received.length} requests, expected ${count}`)), guardMs)
        waiters.push({ count, resolve: () => (clearTimeout(guard), resolve()) })
      })
    },
    stop() {
      for (const release of releases) release()
      server.stop(true)
    },
  }
}

export type WebhookReceiver = ReturnType<typeof webhookReceiver>
