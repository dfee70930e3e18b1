import { afterAll, describe, expect, test } from 'bun:test'
import { WIDGET_CONFIG_DEFAULTS } from '../../server/protocol/widget-config-defaults.ts'
import type { WidgetBootConfig } from '../../server/protocol/widget-protocol.ts'
import { loadBootConfig, WidgetRefused } from '../../widget/src/boot-config.ts'

const boot: WidgetBootConfig = {
  name: 'Demo',
  greeting_message: 'Hi!',
  widget_config: { ...WIDGET_CONFIG_DEFAULTS },
  socket_path: '/widget/v1/socket?key=wk_abcdefghij',
}

/** A real HTTP server on 127.0.0.1 answering the config endpoint as each test scripts it. */
function configServer(answers: (() => Response)[]) {
  const paths: string[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      paths.push(new URL(request.url).pathname)
      return (answers.shift() ?? (() => new Response('gone', { status: 500 })))()
    },
  })
  servers.push(server)
  return { url: `http://127.0.0.1:${server.port}`, paths }
}
const servers: ReturnType<typeof Bun.serve>[] = []
afterAll(() => {
  for (const server of servers) server.stop(true)
})

const problem = (status: number, detail: string) =>
  new Response(JSON.stringify({ type: 'about:blank', title: 'x', status, detail, code: 'x' }), {
    status,
    headers: { 'content-type': 'application/problem+json' },
  })

describe('loading the public widget configuration', () => {
  test('GETs /widget/v1/config/{key} and returns the boot configuration', async () => {
    const server = configServer([() => Response.json(boot)])
    expect(await loadBootConfig(server.url, 'wk_abcdefghij')).toEqual(boot)
    expect(server.paths).toEqual(['/widget/v1/config/wk_abcdefghij'])
  })

  test.each([
    [404, 'no web integration has this widget key'],
    [403, 'this site is not in allowed_domains'],
  ])('a %i is final: its problem detail is the reason, and it is not retried', async (status, detail) => {
    const server = configServer([() => problem(status, detail), () => Response.json(boot)])
    const failure = await loadBootConfig(server.url, 'wk_abcdefghij').catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(WidgetRefused)
    expect((failure as Error).message).toBe(`${detail} (HTTP ${status})`)
    expect(server.paths).toHaveLength(1)
  })

  test('a 5xx is retried, reported once, and a later success is used', async () => {
    const server = configServer([() => problem(503, 'starting'), () => Response.json(boot)])
    const reported: string[] = []
    expect(await loadBootConfig(server.url, 'wk_abcdefghij', (problem) => reported.push(problem))).toEqual(boot)
    expect(reported).toEqual(['starting (HTTP 503); retrying'])
    expect(server.paths).toHaveLength(2)
  })
})
