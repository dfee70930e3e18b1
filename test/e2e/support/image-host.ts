/**
 * A stand-in for a customer's image host over https (what bot_avatar_url must be): a real TLS
 * server on 127.0.0.1 with the test certificate of receiver.test (the browser context is
 * opened with ignoreHTTPSErrors, since no browser trusts it). It serves one small PNG at
 * /avatar.png and answers 404 for anything else: a broken image.
 */
export interface ImageHost {
  /** https://receiver.test:PORT{path} */
  url(path: string): string
  /** Paths requested so far, in order. */
  requested: string[]
  stop(): Promise<void>
}

/** A 1x1 PNG of one orange pixel (scaled to fill the round avatar). */
export const AVATAR_PNG = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4WSwGAAPrAYPijIcLAAAAAElFTkSuQmCC'), (c) => c.charCodeAt(0))

export async function startImageHost(): Promise<ImageHost> {
  const fixtures = new URL('../../outbox/fixtures/', import.meta.url)
  const [cert, key] = await Promise.all([Bun.file(new URL('receiver-test.cert.pem', fixtures)).text(), Bun.file(new URL('receiver-test.key.pem', fixtures)).text()])
  const requested: string[] = []
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    tls: { cert, key },
    fetch(request) {
      const { pathname } = new URL(request.url)
      requested.push(pathname)
      if (pathname === '/avatar.png') return new Response(AVATAR_PNG, { headers: { 'content-type': 'image/png', 'cache-control': 'no-store' } })
      return new Response('no image here', { status: 404, headers: { 'content-type': 'text/plain' } })
    },
  })
  return {
    url: (path) => `https://receiver.test:${server.port}${path}`,
    requested,
    async stop() {
      await server.stop(true)
    },
  }
}
