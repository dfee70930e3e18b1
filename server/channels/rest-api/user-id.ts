import { resolveIdentity } from '../../conversations/identity.ts'

/** Where the ids a client names its users by live among a chatbot's contacts' external ids. */
const NAMESPACE = 'rest-api:'

/**
 * The contact a `user_id` names. An e-mail address or a phone number, read exactly as the
 * widget's identify() reads it (e-mail checked and lower-cased, phone to E.164; nothing dropped
 * or cut), is that contact on every channel; any other value, a longer one included, is the
 * client's own id, kept as sent, in a namespace of its own (it cannot collide with an identity,
 * which never contains `:`).
 */
export function contactExternalId(userId: string): string {
  const identity = resolveIdentity(userId)
  return identity.ok ? identity.externalId : NAMESPACE + userId
}

/** The user id a contact is known by to the client: its own id back, or the normalised e-mail or phone. */
export function userIdOf(externalId: string | null): string | null {
  if (externalId === null) return null
  return externalId.startsWith(NAMESPACE) ? externalId.slice(NAMESPACE.length) : externalId
}
