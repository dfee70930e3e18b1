import type { JsonObject } from './model.ts'

/**
 * What the console shows of the messaging provider's verify handshakes on callback_url: when
 * one last succeeded, and when and why one was last refused. A refusal never erases an
 * earlier success (anyone who knows the callback URL can send a wrong token), so the admin
 * sees both and their times.
 */
export interface ChatappHandshake {
  verified_at: string | null
  refused_at: string | null
  refusal: string | null
}

export type HandshakeOutcome = { verified: true } | { verified: false; refusal: string }

export const NO_HANDSHAKE: ChatappHandshake = { verified_at: null, refused_at: null, refusal: null }

/** The stored record (absent before the first handshake) read back. */
export function handshakeOf(config: JsonObject): ChatappHandshake {
  const stored = config.handshake as Partial<ChatappHandshake> | undefined
  if (!stored || typeof stored !== 'object') return NO_HANDSHAKE
  return { verified_at: stored.verified_at ?? null, refused_at: stored.refused_at ?? null, refusal: stored.refusal ?? null }
}

/** The record after one more handshake at `at`. */
export function afterHandshake(previous: ChatappHandshake, outcome: HandshakeOutcome, at: string): ChatappHandshake {
  return outcome.verified ? { ...previous, verified_at: at } : { ...previous, refused_at: at, refusal: outcome.refusal }
}
