import type { App } from './app.ts'
import type { WebSocketHandler } from 'bun'
import type { SocketData } from './channels/web/socket-data.ts'
import type { DeskSocketData } from './desk/desk-socket.ts'
import { type Peers, rememberListener } from './http/client-address.ts'
import { routableRequest } from './http/routable-request.ts'

/**
 * The largest request head (request line and headers) Bun's parser lets through to Parley,
 * which refuses heads over its own, smaller limits in problem+json (http/oversized-head.ts).
 * Bun.serve has no option for it: it is the runtime flag --max-http-header-size (default
 * 16 KiB), which scripts/build.ts bakes into the binary and `npm start` passes. Over it, Bun itself answers an
 * empty 431 and closes the connection.
 */
export const MAX_REQUEST_HEAD_BYTES = 128 * 1024

/**
 * One Bun server for everything: the widget socket is upgraded before Elysia sees the
 * request; every other request is the HTTP app's.
 */
export function listen(app: App, options: { port: number; hostname: string }) {
  const socketPath = app.socket.path
  const deskPath = app.deskSocket.path
  let peers: Peers | undefined
  return Bun.serve<SocketData | DeskSocketData>({
    port: options.port,
    hostname: options.hostname,
    // The largest of the routes' limits (PARLEY_ATTACHMENT_MAX_BYTES may raise it past 16 MiB):
    // over it Bun answers a bare 413 before the body parser can say which limit in problem+json.
    maxRequestBodySize: app.maxBodyBytes,
    fetch(request, server) {
      peers ??= { requestIP: (of) => server.requestIP(of), proxies: app.proxies }
      if (request.url.includes(socketPath) && new URL(request.url).pathname === socketPath) {
        rememberListener(request, peers)
        return app.socket.upgrade(request, server as never)
      }
      if (request.url.includes(deskPath) && new URL(request.url).pathname === deskPath) {
        rememberListener(request, peers)
        return app.deskSocket.upgrade(request, server as never)
      }
      const routable = routableRequest(request)
      rememberListener(routable, routable === request ? peers : { requestIP: () => server.requestIP(request), proxies: app.proxies })
      return app.fetch(routable)
    },
    websocket: bothSockets(app.socket.handlers, app.deskSocket.handlers),
  })
}

/** One server, two kinds of socket: the widget's (its options apply to both) and the desk's, told apart by their data. */
function bothSockets(widget: WebSocketHandler<SocketData>, desk: WebSocketHandler<DeskSocketData>): WebSocketHandler<SocketData | DeskSocketData> {
  const isDesk = (data: SocketData | DeskSocketData): data is DeskSocketData => 'desk' in data
  type Either = Parameters<NonNullable<WebSocketHandler<SocketData | DeskSocketData>['open']>>[0]
  return {
    ...widget,
    open: (socket: Either) => (isDesk(socket.data) ? desk.open?.(socket as never) : widget.open?.(socket as never)),
    message: (socket: Either, message) => (isDesk(socket.data) ? desk.message?.(socket as never, message) : widget.message?.(socket as never, message)),
    close: (socket: Either, code, reason) => (isDesk(socket.data) ? desk.close?.(socket as never, code, reason) : widget.close?.(socket as never, code, reason)),
    drain: (socket: Either) => (isDesk(socket.data) ? desk.drain?.(socket as never) : widget.drain?.(socket as never)),
  } as WebSocketHandler<SocketData | DeskSocketData>
}
