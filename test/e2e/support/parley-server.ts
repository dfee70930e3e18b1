import type { AppDeps } from '../../../server/app.ts'
import { listen } from '../../../server/listen.ts'
import { type TestApp, testApp } from '../../support/test-app.ts'

export interface ParleyServer {
  app: TestApp
  /** http://127.0.0.1:PORT */
  url: string
  port: number
  /**
   * Stops listening as a crashed or restarting server would: every open socket drops and new
   * connections are refused until resume(). The app and its database stay, so the API (called
   * in-process) keeps working meanwhile.
   */
  pause(): Promise<void>
  /** Listens again on the same port. */
  resume(): void
  stop(): Promise<void>
}

/**
 * The real Parley app over a fresh SQLite file, listening on a free port of 127.0.0.1 with the
 * production listener (HTTP and the widget socket on one port), so a browser can load
 * /widget.js and talk to a chatbot while the test drives the developer API.
 */
export async function startParley(env: Record<string, string> = {}, tuning: AppDeps['tuning'] = {}): Promise<ParleyServer> {
  const app = testApp(env, tuning)
  const hostname = '127.0.0.1'
  let server: ReturnType<typeof listen> | null = listen(app, { port: 0, hostname })
  const port = server.port as number
  return {
    app,
    url: `http://${hostname}:${port}`,
    port,
    async pause() {
      const running = server
      server = null
      await running?.stop(true)
    },
    resume() {
      if (!server) server = listen(app, { port, hostname })
    },
    async stop() {
      await server?.stop(true)
      server = null
      await app.close()
    },
  }
}
