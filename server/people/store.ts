import type { AppLocale } from './app-locales.ts'
import type { Role } from './model.ts'

export type UserRow = {
  id: string
  workspace_id: string
  email: string
  display_name: string
  role: Role
  password_hash: string | null
  disabled_at: string | null
  /** The app's language the person chose; null follows their browser (migration 0030). */
  locale: AppLocale | null
  created_at: string
  updated_at: string | null
}

export type SessionRow = {
  id: string
  hash: string
  user_id: string
  workspace_id: string
  created_at: string
  last_seen_at: string
  expires_at: string
  user_agent: string | null
  address: string | null
}

/** A session with what every request needs of its person, read in one query. */
export type SessionWithUser = SessionRow & { role: Role; disabled_at: string | null }

export type TokenPurpose = 'setup' | 'invite' | 'reset'

export type OneTimeTokenRow = {
  hash: string
  purpose: TokenPurpose
  workspace_id: string
  user_id: string | null
  created_at: string
  expires_at: string
  used_at: string | null
}

/**
 * The only code that reads or writes users, sessions and one-time tokens (docs/architecture.md,
 * "The store seam"). E-mail addresses compare without case: SQLite's NOCASE (ASCII), lower()
 * on PostgreSQL.
 */
export interface PeopleStore {
  insertUser(row: UserRow): Promise<void>
  getUser(workspaceId: string, id: string): Promise<UserRow | undefined>
  findUserByEmail(workspaceId: string, email: string): Promise<UserRow | undefined>
  /** Everyone with this e-mail in any workspace (at most 10, oldest first): sign-in names no workspace. */
  findUsersByEmail(email: string): Promise<UserRow[]>
  listUsers(workspaceId: string, limit: number, offset: number): Promise<UserRow[]>
  listAllUsers(): Promise<UserRow[]>
  countUsers(workspaceId: string): Promise<number>
  /** Admins who can sign in: not disabled, with a password. */
  countActiveAdmins(workspaceId: string): Promise<number>
  updateUser(row: UserRow): Promise<UserRow | undefined>

  insertSession(row: SessionRow): Promise<void>
  findSession(hash: string): Promise<SessionWithUser | undefined>
  /** A person's sessions, last seen first. */
  listSessions(userId: string): Promise<SessionRow[]>
  touchSession(id: string, lastSeenAt: string, expiresAt: string): Promise<void>
  deleteSession(id: string): Promise<void>
  /** Not expired at `at`, and its person not disabled. */
  isSessionLive(id: string, at: string): Promise<boolean>
  deleteSessionsOf(userId: string): Promise<void>

  insertToken(row: Omit<OneTimeTokenRow, 'used_at'>): Promise<void>
  /** Spent in the same statement that finds it: two requests racing with one token cannot both win. */
  spendToken(hash: string, at: string): Promise<OneTimeTokenRow | undefined>
  /** A token that would still work, without spending it. */
  liveToken(hash: string, at: string): Promise<OneTimeTokenRow | undefined>
  deleteUnusedTokensOf(userId: string): Promise<void>
}
