import { randomToken } from '../../support/random-token.ts'
import type { WidgetSocket } from './socket-data.ts'

/** A file still on its way when the socket drops (a reconnect, a flaky network) may arrive this late. */
export const UPLOAD_GRACE_MS = 60_000

const digest = (token: string) => new Bun.CryptoHasher('sha256').update(token).digest('hex')

export type UploadTokens = ReturnType<typeof uploadTokens>

/**
 * Each widget socket's permission to send files: a random token given in its welcome, good
 * while the socket is open and for a grace period after it closes, never stored. It stands for
 * the socket, so an upload is the visitor's, in their conversation, as a text would be. Kept by
 * the token's sha256, so a lookup compares digests, never the secret itself.
 */
export function uploadTokens({ graceMs = UPLOAD_GRACE_MS }: { graceMs?: number } = {}) {
  const sockets = new Map<string, WidgetSocket>()
  const expiries = new Map<string, ReturnType<typeof setTimeout>>()

  function forget(key: string): void {
    sockets.delete(key)
    const timer = expiries.get(key)
    if (timer) clearTimeout(timer)
    expiries.delete(key)
  }

  return {
    /** A new token for the socket (its previous one stops working). */
    issue(socket: WidgetSocket): string {
      if (socket.data.uploadKey) forget(socket.data.uploadKey)
      const token = `ut_${randomToken(32)}`
      socket.data.uploadKey = digest(token)
      sockets.set(socket.data.uploadKey, socket)
      return token
    },
    /** The socket closed: its token lasts the grace period longer. */
    release(socket: WidgetSocket): void {
      const key = socket.data.uploadKey
      if (!key || !sockets.has(key)) return
      const timer = setTimeout(() => forget(key), graceMs)
      timer.unref?.()
      expiries.set(key, timer)
    },
    /** The socket a token stands for, or null (unknown, or expired). */
    find(token: string): WidgetSocket | null {
      return token ? (sockets.get(digest(token)) ?? null) : null
    },
    close(): void {
      for (const timer of expiries.values()) clearTimeout(timer)
      expiries.clear()
      sockets.clear()
    },
  }
}
