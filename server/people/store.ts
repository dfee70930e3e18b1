import type { Database } from 'bun:sqlite'
import type { Role } from './model.ts'

export type UserRow = {
  id: string
  workspace_id: string
  email: string
  display_name: string
  role: Role
  password_hash: string | null
  disabled_at: string | null
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

export type PeopleStore = ReturnType<typeof peopleStore>

/** The only code that reads or writes users, sessions and one-time tokens. */
export function peopleStore(db: Database) {
  const insertUser = db.query(
    `INSERT INTO users (id, workspace_id, email, display_name, role, password_hash, disabled_at, created_at, updated_at)
     VALUES ($id, $workspace_id, $email, $display_name, $role, $password_hash, $disabled_at, $created_at, $updated_at)`,
  )
  const selectUser = db.query<UserRow, [string, string]>('SELECT * FROM users WHERE workspace_id = ? AND id = ?')
  const selectUserByEmail = db.query<UserRow, [string, string]>('SELECT * FROM users WHERE workspace_id = ? AND email = ? COLLATE NOCASE')
  const selectUsersByEmail = db.query<UserRow, [string]>('SELECT * FROM users WHERE email = ? COLLATE NOCASE ORDER BY created_at, id LIMIT 10')
  const selectUsers = db.query<UserRow, [string, number, number]>(
    'SELECT * FROM users WHERE workspace_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?',
  )
  const selectAllUsers = db.query<UserRow, []>('SELECT * FROM users ORDER BY workspace_id, created_at, id')
  const countUsers = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM users WHERE workspace_id = ?')
  const countActiveAdmins = db.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM users WHERE workspace_id = ? AND role = 'admin' AND disabled_at IS NULL AND password_hash IS NOT NULL",
  )
  const updateUser = db.query<UserRow, [string, Role, string | null, string | null, string, string, string]>(
    `UPDATE users SET display_name = ?, role = ?, disabled_at = ?, password_hash = ?, updated_at = ?
     WHERE workspace_id = ? AND id = ? RETURNING *`,
  )

  const insertSession = db.query(
    `INSERT INTO sessions (id, hash, user_id, workspace_id, created_at, last_seen_at, expires_at, user_agent, address)
     VALUES ($id, $hash, $user_id, $workspace_id, $created_at, $last_seen_at, $expires_at, $user_agent, $address)`,
  )
  const selectSession = db.query<SessionWithUser, [string]>(
    `SELECT sessions.*, users.role, users.disabled_at FROM sessions JOIN users ON users.id = sessions.user_id
     WHERE sessions.hash = ?`,
  )
  const selectSessions = db.query<SessionRow, [string]>('SELECT * FROM sessions WHERE user_id = ? ORDER BY last_seen_at DESC, id')
  const touchSession = db.query('UPDATE sessions SET last_seen_at = ?, expires_at = ? WHERE id = ?')
  const deleteSession = db.query('DELETE FROM sessions WHERE id = ?')
  const liveSession = db.query<{ id: string }, [string, string]>(
    'SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ? AND s.expires_at > ? AND u.disabled_at IS NULL',
  )
  const deleteSessionsOf = db.query('DELETE FROM sessions WHERE user_id = ?')

  const insertToken = db.query(
    `INSERT INTO one_time_tokens (hash, purpose, workspace_id, user_id, created_at, expires_at)
     VALUES ($hash, $purpose, $workspace_id, $user_id, $created_at, $expires_at)`,
  )
  // Spent in the same statement that finds it: two requests racing with one token cannot both win.
  const spendToken = db.query<OneTimeTokenRow, [string, string, string]>(
    'UPDATE one_time_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *',
  )
  const deleteTokensOf = db.query('DELETE FROM one_time_tokens WHERE user_id = ? AND used_at IS NULL')
  const liveToken = db.query<{ found: number }, [string, string]>('SELECT 1 AS found FROM one_time_tokens WHERE hash = ? AND used_at IS NULL AND expires_at > ?')

  return {
    transaction: <T>(work: () => T): T => db.transaction(work).immediate(),

    insertUser: (row: UserRow) => void insertUser.run(row),
    getUser: (workspaceId: string, id: string) => selectUser.get(workspaceId, id),
    findUserByEmail: (workspaceId: string, email: string) => selectUserByEmail.get(workspaceId, email),
    /** Everyone with this e-mail in any workspace: sign-in names no workspace. */
    findUsersByEmail: (email: string) => selectUsersByEmail.all(email),
    listUsers: (workspaceId: string, limit: number, offset: number) => selectUsers.all(workspaceId, limit, offset),
    listAllUsers: () => selectAllUsers.all(),
    countUsers: (workspaceId: string) => countUsers.get(workspaceId)?.n ?? 0,
    countActiveAdmins: (workspaceId: string) => countActiveAdmins.get(workspaceId)?.n ?? 0,
    updateUser: (row: UserRow) =>
      updateUser.get(row.display_name, row.role, row.disabled_at, row.password_hash, row.updated_at as string, row.workspace_id, row.id),

    insertSession: (row: SessionRow) => void insertSession.run(row),
    findSession: (hash: string) => selectSession.get(hash),
    listSessions: (userId: string) => selectSessions.all(userId),
    touchSession: (id: string, lastSeenAt: string, expiresAt: string) => void touchSession.run(lastSeenAt, expiresAt, id),
    deleteSession: (id: string) => void deleteSession.run(id),
    isSessionLive: (id: string, at: string) => liveSession.get(id, at) !== null,
    deleteSessionsOf: (userId: string) => void deleteSessionsOf.run(userId),

    insertToken: (row: Omit<OneTimeTokenRow, 'used_at'>) => void insertToken.run(row),
    spendToken: (hash: string, at: string) => spendToken.get(at, hash, at),
    /** Whether a token could be spent now (a read: spending is spendToken's alone). */
    isTokenLive: (hash: string, at: string) => liveToken.get(hash, at) !== null,
    deleteUnusedTokensOf: (userId: string) => void deleteTokensOf.run(userId),
  }
}
