import type { ServerMessage } from '../../protocol/widget-protocol.ts'
import type { WidgetSocket } from './socket-data.ts'

export function send(socket: WidgetSocket, message: ServerMessage): void {
  socket.send(JSON.stringify(message))
}
