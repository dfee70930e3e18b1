const MASK = '••••'
/** Below this length the last 4 characters would give away too much of the secret. */
const SHORTEST_WITH_HINT = 12

/** How a write-only secret is shown: enough to recognise it, never enough to use it. */
export function maskSecret(secret: string): string {
  const characters = [...secret]
  return characters.length < SHORTEST_WITH_HINT ? MASK : MASK + characters.slice(-4).join('')
}

/** The masked form of a secret that may be absent. */
export function maskOptional(secret: unknown): string | null {
  return typeof secret === 'string' ? maskSecret(secret) : null
}
