import type { AppDeps } from '../../../../server/app.ts'
import { listen } from '../../../../server/listen.ts'
import { freePort } from '../../../support/free-port.ts'
import { testApp } from '../../../support/test-app.ts'


/**
 * A Parley listening on 127.0.0.1 whose PARLEY_PUBLIC_URL is that address, so the links it
 * hands out (attachments' addresses) can be fetched by a receiver, as a customer's would.
 */
export function publicParley(env: Record<string, string> = {}, tuning: AppDeps['tuning'] = {}) {
  const port = freePort()
  const origin = `http://127.0.0.1:${port}`
  const app = testApp({ ...env, PARLEY_PUBLIC_URL: origin }, tuning)
  const server = listen(app, { port, hostname: '127.0.0.1' })
  return {
    ...app,
    origin,
    async stop() {
      server.stop(true)
      await app.close()
    },
  }
}
