import type { JsonObject } from './model.ts'

/**
 * What the console shows of the messaging provider's verify handshakes on callback_url: when
 * one last succeeded (stored with the integration), and when and why one was last refused.
 * Refusals are kept in memory only, since the last start: a refused request stores nothing (an
 * invariant the fuzzer checks), and anyone who knows the callback URL can send a wrong token.
 * A refusal never erases an earlier success.
 */
export interface ChatappHandshake {
  verified_at: string | null
  refused_at: string | null
  refusal: string | null
}

export type HandshakeOutcome = { verified: true } | { verified: false; refusal: string }

export interface HandshakeRefusal {
  refused_at: string
  refusal: string
}

/** The stored part (absent before the first successful handshake) read back. */
export function verifiedAtOf(config: JsonObject): string | null {
  const stored = config.handshake as { verified_at?: unknown } | undefined
  return stored && typeof stored.verified_at === 'string' ? stored.verified_at : null
}

/** The record the route answers: the stored success and the refusal remembered since the start. */
export function handshakeRecord(config: JsonObject, refusal: HandshakeRefusal | undefined): ChatappHandshake {
  return { verified_at: verifiedAtOf(config), refused_at: refusal?.refused_at ?? null, refusal: refusal?.refusal ?? null }
}
