import type { AppDeps } from '../../server/app.ts'
import { listen } from '../../server/listen.ts'
import { testApp } from './test-app.ts'

/**
 * A fresh Parley listening on a free port of 127.0.0.1 (real HTTP and real sockets), plus the
 * in-process helpers of testApp.
 */
export function liveServer(env: Record<string, string> = {}, tuning: AppDeps['tuning'] = {}, now?: AppDeps['now']) {
  const app = testApp(env, tuning, now)
  const server = listen(app, { port: 0, hostname: '127.0.0.1' })
  const origin = `http://127.0.0.1:${server.port}`
  return {
    ...app,
    server,
    origin,
    socketUrl: (widgetKey: string) => `ws://127.0.0.1:${server.port}/widget/v1/socket?key=${encodeURIComponent(widgetKey)}`,
    async stop() {
      server.stop(true)
      await app.close()
    },
  }
}

export type LiveServer = ReturnType<typeof liveServer>
