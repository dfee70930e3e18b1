/**
 * The request as Elysia can route it. Elysia finds the path by looking for the first "/" from
 * the 12th character of the URL on, which assumes an authority of at least four characters:
 * behind a proxy that forwards `Host: app` (a Docker service name) the URL is `http://app/...`
 * and every request would be routed by the wrong path. Such a request is rebuilt under a
 * placeholder authority; the Host header is kept as it came, and nothing in Parley reads the
 * host from the URL. Every other request passes as it is, at the cost of one `indexOf`.
 */
export function routableRequest(request: Request): Request {
  const url = request.url
  const authority = url.indexOf('//') + 2
  const pathStart = url.indexOf('/', authority)
  if (pathStart < 0 || pathStart >= 11) return request
  return new Request(`${url.slice(0, authority)}${SHORT_HOST_PLACEHOLDER}${url.slice(pathStart)}`, request)
}

/** Long enough for Elysia's router; `.invalid` can never name a real host (RFC 2606). */
export const SHORT_HOST_PLACEHOLDER = 'short-host.invalid'
