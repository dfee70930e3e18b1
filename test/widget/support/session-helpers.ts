import { UPLOAD_PATH } from '../../../server/protocol/widget-protocol.ts'
import { createSession, type Session } from '../../../widget/src/session.ts'
import type { KeyValueStore } from '../../../widget/src/storage.ts'
import type { LiveServer } from '../../support/live-server.ts'

/** The page's storage for a widget session under test: a map, forgotten with the test. */
export function memoryStore(): KeyValueStore {
  const values = new Map<string, string>()
  return { get: (name) => values.get(name) ?? null, set: (name, value) => (value === null ? values.delete(name) : values.set(name, value)) }
}

/**
 * A new visitor's widget session on `server`'s chat `widgetKey`, opened and connecting; the
 * caller waits for what it needs and ends it with `setActive(false)`.
 */
export function openSession(server: LiveServer, widgetKey: string): Session {
  const session = createSession({
    socketUrl: server.socketUrl(widgetKey),
    uploadUrl: `${server.origin}${UPLOAD_PATH}?key=${widgetKey}`,
    profile: { contactDetails: {} },
    memory: memoryStore(),
    tabMemory: memoryStore(),
    pageUrl: () => 'http://shop.test/',
    warn: () => {},
  })
  session.setOpen(true)
  session.setActive(true)
  return session
}

/** Waits, up to 3 s, for what the session shows to meet `condition`. */
export async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (condition()) return
    await Bun.sleep(10)
  }
  throw new Error(`timed out waiting for ${what}`)
}
