import { type TestApp, testApp } from '../../support/test-app.ts'

export interface ParleyServer {
  app: TestApp
  /** http://127.0.0.1:PORT */
  url: string
  stop(): Promise<void>
}

/**
 * The real Parley app over a fresh SQLite file, listening on a free port of 127.0.0.1, so a
 * browser can load /widget.js and open the widget socket while the test drives its services.
 */
export async function startParley(env: Record<string, string> = {}): Promise<ParleyServer> {
  const app = testApp(env)
  app.http.listen({ hostname: '127.0.0.1', port: 0 })
  const port = app.http.server?.port
  if (!port) throw new Error('parley did not listen')
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    async stop() {
      await app.http.server?.stop(true)
      await app.close()
    },
  }
}
