import type { Page, PageOf } from '../http/common-model.ts'
import { ApiError, conflict, invalidField, notFound } from '../http/api-error.ts'
import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { checkEmailAddress } from '../support/email-address.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import type { CreateUser, OneTimeLink, Role, UpdateMe, UpdateUser, User } from './model.ts'
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

type PeopleStores = { people: PeopleStore }

export interface PeopleServiceDeps {
  stores: PeopleStores
  units: Units<PeopleStores>
  now: Clock
  publicUrl: string
  events?: EventBus
  passwords?: PasswordPool
}

export function peopleService({ stores, units, now, publicUrl, events, passwords }: PeopleServiceDeps) {
  const store = stores.people

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
  async function issueLink(tx: PeopleStores, workspaceId: string, purpose: TokenPurpose, userId: string | null, createdAt = now()): Promise<OneTimeLink> {
    const token = `pt_${randomToken(40)}`
    const expiresAt = new Date(Date.parse(createdAt) + LINK_LIFETIME_MS[purpose]).toISOString()
    // A new link replaces the person's earlier ones: only the latest one handed out works.
    if (userId) await tx.people.deleteUnusedTokensOf(userId)
    await tx.people.insertToken({ hash: secretHash(token), purpose, workspace_id: workspaceId, user_id: userId, created_at: createdAt, expires_at: expiresAt })
    return { url: `${publicUrl}${LINK_PATH[purpose]}#token=${token}`, purpose, expires_at: expiresAt }
  }

  async function requireUser(people: PeopleStore, workspaceId: string, userId: string): Promise<UserRow> {
    const row = await people.getUser(workspaceId, userId)
    if (!row) throw notFound('user')
    return row
  }

  function normalEmail(raw: string, path = '/email'): string {
    const check = checkEmailAddress(raw)
    // Reserved domains (example.com, *.test) are fine for people: only malformed addresses are refused.
    if (!check.ok && check.reason === 'invalid') throw invalidField(path, 'is not an e-mail address')
    return check.ok ? check.email : raw.trim()
  }

  async function insertPerson(tx: PeopleStores, workspaceId: string, input: CreateUser, passwordHash: string | null): Promise<UserRow> {
    const email = normalEmail(input.email)
    if (await tx.people.findUserByEmail(workspaceId, email)) throw conflict('email_taken', `someone in this workspace already has the e-mail ${email}`)
    const row: UserRow = {
      id: newId(),
      workspace_id: workspaceId,
      email,
      display_name: input.display_name.trim() || input.display_name,
      role: input.role,
      password_hash: passwordHash,
      disabled_at: null,
      locale: null,
      created_at: now(),
      updated_at: null,
    }
    await tx.people.insertUser(row)
    return row
  }

  /** Would this change leave the workspace without an active admin to manage it? */
  async function removesLastAdmin(tx: PeopleStores, row: UserRow, role: Role, disabled: boolean): Promise<boolean> {
    const wasActiveAdmin = row.role === 'admin' && !row.disabled_at && row.password_hash !== null
    return wasActiveAdmin && (role !== 'admin' || disabled) && (await tx.people.countActiveAdmins(row.workspace_id)) <= 1
  }

  return {
    async list(workspaceId: string, page: Page): Promise<PageOf<User>> {
      const [rows, total] = await Promise.all([store.listUsers(workspaceId, page.limit, page.offset), store.countUsers(workspaceId)])
      return { items: rows.map(toUser), total }
    },

    get: async (workspaceId: string, userId: string): Promise<User> => toUser(await requireUser(store, workspaceId, userId)),

    /** An invited person and the link that lets them set their password. */
    invite(workspaceId: string, input: CreateUser): Promise<{ user: User; invite: OneTimeLink }> {
      return units.unit(async (tx) => {
        const row = await insertPerson(tx, workspaceId, input, null)
        return { user: toUser(row), invite: await issueLink(tx, workspaceId, 'invite', row.id, row.created_at) }
      })
    },

    /** A person who can sign in at once (the CLI's --password-stdin). */
    async createWithPassword(workspaceId: string, input: CreateUser, password: string): Promise<User> {
      const hash = await hashPassword(password)
      return toUser(await units.unit((tx) => insertPerson(tx, workspaceId, input, hash)))
    },

    /** An invite link for someone who has not set a password yet, a reset link for everyone else. */
    link(workspaceId: string, userId: string): Promise<OneTimeLink> {
      return units.unit(async (tx) => {
        const row = await requireUser(tx.people, workspaceId, userId)
        if (row.disabled_at) throw conflict('user_disabled', 'the user is disabled; enable them first')
        return issueLink(tx, workspaceId, row.password_hash === null ? 'invite' : 'reset', row.id)
      })
    },

    /** The link printed at the first start, which creates the workspace's first admin. */
    setupLink: (workspaceId: string): Promise<OneTimeLink> => units.unit((tx) => issueLink(tx, workspaceId, 'setup', null)),

    async update(workspaceId: string, userId: string, patch: UpdateUser): Promise<User> {
      const { updated, disabled } = await units.unit(async (tx) => {
        const row = await requireUser(tx.people, workspaceId, userId)
        const role = patch.role ?? row.role
        const disabled = patch.disabled ?? row.disabled_at !== null
        if (await removesLastAdmin(tx, row, role, disabled)) {
          throw conflict('last_admin', 'this is the last active admin of the workspace: make someone else admin first')
        }
        const at = now()
        const updated = (await tx.people.updateUser({
          ...row,
          display_name: patch.display_name ?? row.display_name,
          role,
          disabled_at: disabled ? (row.disabled_at ?? at) : null,
          updated_at: at,
        })) as UserRow
        // Disabling takes effect at once: every session ends and no earlier link works.
        if (disabled) {
          await tx.people.deleteSessionsOf(row.id)
          await tx.people.deleteUnusedTokensOf(row.id)
        }
        return { updated, disabled }
      })
      if (disabled) events?.emit('people.sessions_ended', { userId: updated.id })
      return toUser(updated)
    },

    /** What a signed-in person changes of their own: the app's language (null follows the browser). */
    async updateOwn(workspaceId: string, userId: string, patch: UpdateMe): Promise<User> {
      if (patch.locale === undefined) return toUser(await requireUser(store, workspaceId, userId))
      const locale = patch.locale
      const updated = await units.unit(async (tx) => {
        const row = await requireUser(tx.people, workspaceId, userId)
        return (await tx.people.updateUser({ ...row, locale, updated_at: now() })) as UserRow
      })
      return toUser(updated)
    },

    /**
     * What a one-time link is for, before its page shows a form: its purpose and the e-mail
     * the person will sign in with (none for a setup link, which asks for one). A link that
     * would not work answers exactly as accepting it would.
     */
    async peek(token: string): Promise<{ purpose: TokenPurpose; email: string | null; expires_at: string }> {
      const row = await store.liveToken(secretHash(token), now())
      const user = row?.user_id ? await store.getUser(row.workspace_id, row.user_id) : undefined
      if (!row || (row.user_id && (!user || user.disabled_at))) throw invalidToken()
      return { purpose: row.purpose, email: user?.email ?? null, expires_at: row.expires_at }
    },

    /**
     * Spends a one-time token and sets the password it allows: for an invited person, a
     * person resetting theirs (signed out everywhere), or, with a setup token, a new first admin.
     * Every failure answers alike: an unknown, spent and expired token are the same to a guesser.
     */
    async accept(input: { token: string; password: string; display_name?: string; email?: string }): Promise<UserRow> {
      // A made-up token costs no hash: only a link that could be spent is worth one.
      const live = await store.liveToken(secretHash(input.token), now())
      if (!live) throw invalidToken()
      // What can refuse is checked before the unit (on SQLite a unit that throws after a write
      // rolls back its batch); inside it, only a race repeats these checks.
      if (live.purpose === 'setup') {
        if (!input.email) throw invalidField('/email', 'is required to create the first admin')
        const email = normalEmail(input.email)
        if (await store.findUserByEmail(live.workspace_id, email)) throw conflict('email_taken', `someone in this workspace already has the e-mail ${email}`)
      } else {
        const user = await store.getUser(live.workspace_id, live.user_id as string)
        if (!user || user.disabled_at) throw invalidToken()
      }
      const hash = await hashInTurn(input.password)
      const { user, signedOut } = await units.unit(async (tx) => {
        const at = now()
        const token = await tx.people.spendToken(secretHash(input.token), at)
        if (!token) throw invalidToken()
        if (token.purpose === 'setup') {
          const email = input.email as string
          const display_name = input.display_name ?? email
          return { user: await insertPerson(tx, token.workspace_id, { email, display_name, role: 'admin' }, hash), signedOut: false }
        }
        const row = await tx.people.getUser(token.workspace_id, token.user_id as string)
        if (!row || row.disabled_at) throw invalidToken()
        await tx.people.deleteSessionsOf(row.id)
        const updated = (await tx.people.updateUser({ ...row, display_name: input.display_name ?? row.display_name, password_hash: hash, updated_at: at })) as UserRow
        return { user: updated, signedOut: true }
      })
      if (signedOut) events?.emit('people.sessions_ended', { userId: user.id })
      return user
    },

    findByEmail: async (workspaceId: string, email: string): Promise<User | null> => {
      const row = await store.findUserByEmail(workspaceId, email.trim())
      return row ? toUser(row) : null
    },

    listEverywhere: async () => (await store.listAllUsers()).map((row) => ({ ...toUser(row), workspace_id: row.workspace_id })),
  }
}

export function toUser(row: UserRow): User {
  const status = row.disabled_at ? 'disabled' : row.password_hash === null ? 'invited' : 'active'
  const { id, email, display_name, role, created_at, updated_at } = row
  return { id, email, display_name, role, status, locale: row.locale ?? null, created_at, updated_at }
}
