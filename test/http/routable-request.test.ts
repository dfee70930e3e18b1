import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routableRequest, SHORT_HOST_PLACEHOLDER } from '../../server/http/routable-request.ts'
import { compiledParley } from '../support/compiled-parley.ts'
import { liveServer } from '../support/live-server.ts'
import { rawRequest } from '../support/raw-request.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'

describe('routableRequest', () => {
  test('a request whose host has four characters or more passes as it is', () => {
    const request = new Request('http://a.io/healthz')
    expect(routableRequest(request)).toBe(request)
  })

  test('a one-letter host is rebuilt with the same path, query, method, headers and body', async () => {
    const request = new Request('http://a/api/dev/v1/chatbots?limit=2', { method: 'POST', headers: { host: 'a', 'x-probe': '1' }, body: '{"name":"x"}' })
    const routed = routableRequest(request)
    expect(routed.url).toBe(`http://${SHORT_HOST_PLACEHOLDER}/api/dev/v1/chatbots?limit=2`)
    expect(routed.method).toBe('POST')
    expect(routed.headers.get('x-probe')).toBe('1')
    expect(routed.headers.get('host')).toBe('a')
    expect(await routed.text()).toBe('{"name":"x"}')
  })
})

const SHORT_HOSTS = ['a', 'ab', 'app', 'x.y', 'a:80', 'abcd']

for (const where of ['source', 'binary'] as const) {
  describe(`short Host headers are routed by their path (${where})`, () => {
    let url: string
    let stop: () => Promise<void>
    let dir: string
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'parley-host-'))
      if (where === 'source') {
        const server = liveServer()
        url = server.origin
        stop = () => server.stop()
      } else {
        const parley: RunningParley = await runParley([compiledParley()], { PARLEY_DATA_DIR: dir })
        url = parley.url
        stop = async () => {
          await parley.stop()
        }
      }
    }, 30_000)
    afterAll(async () => {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    })

    for (const host of SHORT_HOSTS) {
      test(`Host: ${host} reaches /healthz`, async () => {
        const answer = await rawRequest(url, `GET /healthz HTTP/1.1\r\nHost: ${host}\r\n`)
        expect(answer.status).toBe(200)
        expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok' })
      })
    }

    test('Host: app with an unknown path answers 404, not another route', async () => {
      const answer = await rawRequest(url, `GET /api/dev/v1/nothing-here HTTP/1.1\r\nHost: app\r\n`)
      expect(answer.status).toBe(404)
      expect(answer.headers['content-type']).toBe('application/problem+json')
    })
  })
}
