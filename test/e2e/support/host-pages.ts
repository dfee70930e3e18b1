/**
 * A stand-in for a customer's website: a tiny server on 127.0.0.1 whose pages embed the
 * widget from the Parley server under test. Reach it as http://shop.test:PORT/... (any *.test
 * name maps to 127.0.0.1 in the test browser) so the page has the origin a test needs.
 *
 * Every path answers with a page; what the page holds comes from the query string or from
 * pages registered with `page(path, html)`.
 */
export interface HostPages {
  port: number
  /** http://{host}:{port}{path} */
  url(host: string, path?: string): string
  /** Serves `html` at `path` (exact path match; later calls replace earlier ones). */
  page(path: string, html: string): void
  stop(): Promise<void>
}

export function startHostPages(): HostPages {
  const pages = new Map<string, string>()
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch(request) {
      const { pathname } = new URL(request.url)
      const html = pages.get(pathname) ?? pages.get('*')
      if (html === undefined) return new Response('no page here', { status: 404 })
      return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } })
    },
  })
  const port = server.port as number
  return {
    port,
    url: (host, path = '/') => `http://${host}:${port}${path}`,
    page(path, html) {
      pages.set(path, html)
    },
    async stop() {
      await server.stop(true)
    },
  }
}

/** A plain page with the widget's script element before </body>. */
export function embedPage(options: { serverUrl: string; widgetKey: string; head?: string; body?: string; attributes?: string; keyedSrc?: boolean }): string {
  // keyedSrc: the console's snippet, the key in the script's address too (its configuration comes with it).
  const src = `${options.serverUrl}/widget.js${options.keyedSrc ? `?key=${options.widgetKey}` : ''}`
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Shop</title>${options.head ?? ''}</head>
<body>
<h1>A shop</h1>
${options.body ?? ''}
<script src="${src}" data-widget-key="${options.widgetKey}" ${options.attributes ?? 'async'}></script>
</body>
</html>`
}
