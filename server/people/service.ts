import type { Page, PageOf } from '../http/common-model.ts'
import { ApiError, conflict, invalidField, notFound } from '../http/api-error.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../support/events.ts'
import { checkEmailAddress } from '../support/email-address.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import type { CreateUser, OneTimeLink, Role, UpdateUser, User } from './model.ts'
import { hashPassword } from './password.ts'
import { type PasswordPool, PasswordPoolRefusal } from './password-pool.ts'
import { secretHash } from './secret-hash.ts'
import type { PeopleStore, TokenPurpose, UserRow } from './store.ts'

const MINUTE_MS = 60 * 1000
/** How long each kind of link works: the first admin's is printed at start, so it is short. */
export const LINK_LIFETIME_MS: Record<TokenPurpose, number> = {
  setup: 30 * MINUTE_MS,
  invite: 7 * 24 * 60 * MINUTE_MS,
  reset: 24 * 60 * MINUTE_MS,
}
/** The desk pages that open each link; the token travels in the fragment, which no server or log sees. */
const LINK_PATH: Record<TokenPurpose, string> = { setup: '/app/setup', invite: '/app/invite', reset: '/app/reset-password' }

export type PeopleService = ReturnType<typeof peopleService>

/**
 * The people of a workspace and the one-time links that let them set a password. A person
 * exists from their invite on (status `invited`), and is `active` once a password is set.
 */
/** The pool's key for the hashes of one-time links: they take their turn beside the sign-in addresses. */
const LINK_HASHES = 'one-time links'

const invalidToken = () => new ApiError(400, 'invalid_token', 'the link is unknown, used already or expired; ask an admin for a new one')

export function peopleService({ store, now, publicUrl, events, passwords }: { store: PeopleStore; now: Clock; publicUrl: string; events?: EventBus; passwords?: PasswordPool }) {
  async function hashInTurn(password: string): Promise<string> {
    if (!passwords) return hashPassword(password)
    try {
      return await passwords.run(LINK_HASHES, false, () => hashPassword(password))
    } catch (error) {
      if (!(error instanceof PasswordPoolRefusal)) throw error
      throw new ApiError(503, 'sign_in_busy', 'too many passwords are being checked right now; retry in 1 s', undefined, { 'retry-after': '1' })
    }
  }

  /** `createdAt`: the time of the change the link belongs to (an invite's person), one clock read for both. */
  function issueLink(workspaceId: string, purpose: TokenPurpose, userId: string | null, createdAt = now()): OneTimeLink {
    const token = `pt_${randomToken(40)}`
    const expiresAt = new Date(Date.parse(createdAt) + LINK_LIFETIME_MS[purpose]).toISOString()
    // A new link replaces the person's earlier ones: only the latest one handed out works.
    if (userId) store.deleteUnusedTokensOf(userId)
    store.insertToken({ hash: secretHash(token), purpose, workspace_id: workspaceId, user_id: userId, created_at: createdAt, expires_at: expiresAt })
    return { url: `${publicUrl}${LINK_PATH[purpose]}#token=${token}`, purpose, expires_at: expiresAt }
  }

  function requireUser(workspaceId: string, userId: string): UserRow {
    const row = store.getUser(workspaceId, userId)
    if (!row) throw notFound('user')
    return row
  }

  function normalEmail(raw: string, path = '/email'): string {
    const check = checkEmailAddress(raw)
    // Reserved domains (example.com, *.test) are fine for people: only malformed addresses are refused.
    if (!check.ok && check.reason === 'invalid') throw invalidField(path, 'is not an e-mail address')
    return check.ok ? check.email : raw.trim()
  }

  function insertPerson(workspaceId: string, input: CreateUser, passwordHash: string | null): UserRow {
    const email = normalEmail(input.email)
    if (store.findUserByEmail(workspaceId, email)) throw conflict('email_taken', `someone in this workspace already has the e-mail ${email}`)
    const row: UserRow = {
      id: newId(),
      workspace_id: workspaceId,
      email,
      display_name: input.display_name.trim() || input.display_name,
      role: input.role,
      password_hash: passwordHash,
      disabled_at: null,
      created_at: now(),
      updated_at: null,
    }
    store.insertUser(row)
    return row
  }

  /** Would this change leave the workspace without an active admin to manage it? */
  function removesLastAdmin(row: UserRow, role: Role, disabled: boolean): boolean {
    const wasActiveAdmin = row.role === 'admin' && !row.disabled_at && row.password_hash !== null
    return wasActiveAdmin && (role !== 'admin' || disabled) && store.countActiveAdmins(row.workspace_id) <= 1
  }

  return {
    list(workspaceId: string, page: Page): PageOf<User> {
      return { items: store.listUsers(workspaceId, page.limit, page.offset).map(toUser), total: store.countUsers(workspaceId) }
    },

    get: (workspaceId: string, userId: string): User => toUser(requireUser(workspaceId, userId)),

    /** An invited person and the link that lets them set their password. */
    invite(workspaceId: string, input: CreateUser): { user: User; invite: OneTimeLink } {
      return store.transaction(() => {
        const row = insertPerson(workspaceId, input, null)
        return { user: toUser(row), invite: issueLink(workspaceId, 'invite', row.id, row.created_at) }
      })
    },

    /** A person who can sign in at once (the CLI's --password-stdin). */
    async createWithPassword(workspaceId: string, input: CreateUser, password: string): Promise<User> {
      const hash = await hashPassword(password)
      return toUser(store.transaction(() => insertPerson(workspaceId, input, hash)))
    },

    /** An invite link for someone who has not set a password yet, a reset link for everyone else. */
    link(workspaceId: string, userId: string): OneTimeLink {
      return store.transaction(() => {
        const row = requireUser(workspaceId, userId)
        if (row.disabled_at) throw conflict('user_disabled', 'the user is disabled; enable them first')
        return issueLink(workspaceId, row.password_hash === null ? 'invite' : 'reset', row.id)
      })
    },

    /** The link printed at the first start, which creates the workspace's first admin. */
    setupLink: (workspaceId: string): OneTimeLink => issueLink(workspaceId, 'setup', null),

    update(workspaceId: string, userId: string, patch: UpdateUser): User {
      return store.transaction(() => {
        const row = requireUser(workspaceId, userId)
        const role = patch.role ?? row.role
        const disabled = patch.disabled ?? row.disabled_at !== null
        if (removesLastAdmin(row, role, disabled)) {
          throw conflict('last_admin', 'this is the last active admin of the workspace: make someone else admin first')
        }
        const at = now()
        const updated = store.updateUser({
          ...row,
          display_name: patch.display_name ?? row.display_name,
          role,
          disabled_at: disabled ? (row.disabled_at ?? at) : null,
          updated_at: at,
        }) as UserRow
        // Disabling takes effect at once: every session ends and no earlier link works.
        if (disabled) {
          store.deleteSessionsOf(row.id)
          store.deleteUnusedTokensOf(row.id)
          events?.emit('people.sessions_ended', { userId: row.id })
        }
        return toUser(updated)
      })
    },

    /**
     * Spends a one-time token and sets the password it allows: for an invited person, a
     * person resetting theirs (signed out everywhere), or, with a setup token, a new first admin.
     * Every failure answers alike: an unknown, spent and expired token are the same to a guesser.
     */
    async accept(input: { token: string; password: string; display_name?: string; email?: string }): Promise<UserRow> {
      // A made-up token costs no hash: only a link that could be spent is worth one.
      if (!store.isTokenLive(secretHash(input.token), now())) throw invalidToken()
      const hash = await hashInTurn(input.password)
      return store.transaction(() => {
        const at = now()
        const token = store.spendToken(secretHash(input.token), at)
        if (!token) throw invalidToken()
        if (token.purpose === 'setup') {
          if (!input.email) throw invalidField('/email', 'is required to create the first admin')
          const display_name = input.display_name ?? input.email
          return insertPerson(token.workspace_id, { email: input.email, display_name, role: 'admin' }, hash)
        }
        const row = store.getUser(token.workspace_id, token.user_id as string)
        if (!row || row.disabled_at) throw invalidToken()
        store.deleteSessionsOf(row.id)
        events?.emit('people.sessions_ended', { userId: row.id })
        return store.updateUser({ ...row, display_name: input.display_name ?? row.display_name, password_hash: hash, updated_at: at }) as UserRow
      })
    },

    findByEmail: (workspaceId: string, email: string): User | null => {
      const row = store.findUserByEmail(workspaceId, email.trim())
      return row ? toUser(row) : null
    },

    listEverywhere: () => store.listAllUsers().map((row) => ({ ...toUser(row), workspace_id: row.workspace_id })),
  }
}

export function toUser(row: UserRow): User {
  const status = row.disabled_at ? 'disabled' : row.password_hash === null ? 'invited' : 'active'
  const { id, email, display_name, role, created_at, updated_at } = row
  return { id, email, display_name, role, status, created_at, updated_at }
}
