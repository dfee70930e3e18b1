import type { Clock } from '../support/clock.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import type { ContactStore, StoredContact } from './contact-store.ts'
import { mergeContactDetails } from './contact-details.ts'
import { isCanonicalUserId, resolveIdentity, verifyIdentityHash } from './identity.ts'
import type { ContactDetails } from './model.ts'

const VISITOR_TOKEN = /^vt_[0-9A-Za-z]{32}$/

export interface VisitorClaim {
  chatbotId: string
  userId?: string
  userHash?: string
  visitorToken?: string
  identitySecret: string | null
  defaultCountry: string | null
}

export type Visitor =
  | {
      ok: true
      /** Kept by the widget to come back as the same anonymous visitor. */
      visitorToken: string
      tokenHash: string
      /** Normalised e-mail or E.164 phone, when identified. */
      externalId: string | null
      contact: StoredContact | undefined
    }
  | { ok: false; refusal: 'invalid_identity' | 'identity_not_canonical' | 'identity_not_verified'; reason: string }

export type VisitorService = ReturnType<typeof visitorService>

/**
 * Who is on the other end of a widget: an anonymous visitor (a random token kept in the
 * browser) or an identified one (identify(): e-mail or phone), and their contact record,
 * which is created only once they start a conversation.
 */
export function visitorService(contacts: ContactStore, now: Clock) {
  function findContact(chatbotId: string, visitor: { externalId: string | null; tokenHash: string }): StoredContact | undefined {
    return visitor.externalId ? contacts.findByExternalId(chatbotId, visitor.externalId) : contacts.findByVisitorToken(chatbotId, visitor.tokenHash)
  }

  /** The visitor's language as their channel now tells it: written only when it changed. */
  function noteLocale(contactId: string, locale: string): StoredContact {
    const contact = contacts.get(contactId) as StoredContact
    if (contact.locale === locale) return contact
    contacts.setLocale(contactId, locale, now())
    return contacts.get(contactId) as StoredContact
  }

  return {
    resolve(claim: VisitorClaim): Visitor {
      const visitorToken = claim.visitorToken && VISITOR_TOKEN.test(claim.visitorToken) ? claim.visitorToken : `vt_${randomToken(32)}`
      const tokenHash = hashToken(visitorToken)
      if (claim.userId === undefined) {
        return { ok: true, visitorToken, tokenHash, externalId: null, contact: contacts.findByVisitorToken(claim.chatbotId, tokenHash) }
      }
      const identity = resolveIdentity(claim.userId, claim.defaultCountry)
      if (!identity.ok) return { ok: false, refusal: 'invalid_identity', reason: identity.reason }
      if (claim.identitySecret) {
        // Checked before the hash, so a backend that signs the wrong spelling is told which one.
        if (!isCanonicalUserId(claim.userId, identity)) {
          const form = identity.kind === 'email' ? 'the lower-case e-mail address' : 'the E.164 phone number'
          return { ok: false, refusal: 'identity_not_canonical', reason: `identify() with a hash needs ${form} exactly, signed as such` }
        }
        if (!verifyIdentityHash(claim.identitySecret, claim.userId, claim.userHash)) {
          return { ok: false, refusal: 'identity_not_verified', reason: 'identify() needs a valid hash for this user id' }
        }
      }
      let contact = contacts.findByExternalId(claim.chatbotId, identity.externalId)
      if (!contact) {
        // An anonymous visitor who logs in keeps their conversation: the contact is upgraded.
        const anonymous = contacts.findByVisitorToken(claim.chatbotId, tokenHash)
        if (anonymous && anonymous.external_id === null) {
          contacts.identify(anonymous.id, identity.externalId, now())
          contact = contacts.get(anonymous.id)
        }
      }
      return { ok: true, visitorToken, tokenHash, externalId: identity.externalId, contact }
    },

    /** The visitor's contact if they have one already. */
    findContact,

    /**
     * The contact of a visitor who starts talking, created on first need, with the language
     * their channel told (a checked BCP 47 tag; null leaves the stored one).
     */
    ensureContact(chatbotId: string, visitor: { externalId: string | null; tokenHash: string }, locale: string | null = null): StoredContact {
      const existing = findContact(chatbotId, visitor)
      if (existing) return locale && existing.locale !== locale ? noteLocale(existing.id, locale) : existing
      const id = newId()
      contacts.insert({
        id,
        chatbot_id: chatbotId,
        external_id: visitor.externalId,
        visitor_token_hash: visitor.externalId ? null : visitor.tokenHash,
        locale,
        created_at: now(),
      })
      return contacts.get(id) as StoredContact
    },

    noteLocale,

    /** Merges details into the stored ones; returns the keys left out past the field limit. */
    mergeDetails(contactId: string, incoming: ContactDetails): string[] {
      const contact = contacts.get(contactId)
      if (!contact) return []
      const { details, overLimit } = mergeContactDetails(contact.details, incoming)
      contacts.setDetails(contactId, details, now())
      return overLimit
    },

    hasSpoken: (contactId: string) => Boolean(contacts.get(contactId)?.first_message_at),
  }
}

function hashToken(token: string): string {
  return Bun.SHA256.hash(token, 'hex') as string
}
