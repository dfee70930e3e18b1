import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { Role } from './model.ts'
import type { OneTimeTokenRow, PeopleStore, SessionRow, SessionWithUser, UserRow } from './store.ts'

export function sqlitePeopleStore(db: Database): PeopleStore {
  const insertUser = db.query(
    `INSERT INTO users (id, workspace_id, email, display_name, role, password_hash, disabled_at, locale, created_at, updated_at)
     VALUES ($id, $workspace_id, $email, $display_name, $role, $password_hash, $disabled_at, $locale, $created_at, $updated_at)`,
  )
  const selectUser = db.query<UserRow, [string, string]>('SELECT * FROM users WHERE workspace_id = ? AND id = ?')
  const selectUserByEmail = db.query<UserRow, [string, string]>('SELECT * FROM users WHERE workspace_id = ? AND email = ? COLLATE NOCASE')
  const selectUsersByEmail = db.query<UserRow, [string]>('SELECT * FROM users WHERE email = ? COLLATE NOCASE ORDER BY created_at, id LIMIT 10')
  const selectUsers = db.query<UserRow, [string, number, number]>('SELECT * FROM users WHERE workspace_id = ? ORDER BY created_at, id LIMIT ? OFFSET ?')
  const selectAllUsers = db.query<UserRow, []>('SELECT * FROM users ORDER BY workspace_id, created_at, id')
  const countUsers = db.query<{ n: number }, [string]>('SELECT count(*) AS n FROM users WHERE workspace_id = ?')
  const countActiveAdmins = db.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM users WHERE workspace_id = ? AND role = 'admin' AND disabled_at IS NULL AND password_hash IS NOT NULL",
  )
  const updateUser = db.query<UserRow, [string, Role, string | null, string | null, string | null, string, string, string]>(
    `UPDATE users SET display_name = ?, role = ?, disabled_at = ?, password_hash = ?, locale = ?, updated_at = ?
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
  const spendToken = db.query<OneTimeTokenRow, [string, string, string]>(
    'UPDATE one_time_tokens SET used_at = ? WHERE hash = ? AND used_at IS NULL AND expires_at > ? RETURNING *',
  )
  const deleteTokensOf = db.query('DELETE FROM one_time_tokens WHERE user_id = ? AND used_at IS NULL')
  const liveToken = db.query<OneTimeTokenRow, [string, string]>('SELECT * FROM one_time_tokens WHERE hash = ? AND used_at IS NULL AND expires_at > ?')

  return {
    insertUser: (row) => settled(() => void insertUser.run(row)),
    getUser: (workspaceId, id) => settled(() => selectUser.get(workspaceId, id) ?? undefined),
    findUserByEmail: (workspaceId, email) => settled(() => selectUserByEmail.get(workspaceId, email) ?? undefined),
    findUsersByEmail: (email) => settled(() => selectUsersByEmail.all(email)),
    listUsers: (workspaceId, limit, offset) => settled(() => selectUsers.all(workspaceId, limit, offset)),
    listAllUsers: () => settled(() => selectAllUsers.all()),
    countUsers: (workspaceId) => settled(() => countUsers.get(workspaceId)?.n ?? 0),
    countActiveAdmins: (workspaceId) => settled(() => countActiveAdmins.get(workspaceId)?.n ?? 0),
    updateUser: (row) =>
      settled(() => updateUser.get(row.display_name, row.role, row.disabled_at, row.password_hash, row.locale ?? null, row.updated_at as string, row.workspace_id, row.id) ?? undefined),

    insertSession: (row) => settled(() => void insertSession.run(row)),
    findSession: (hash) => settled(() => selectSession.get(hash) ?? undefined),
    listSessions: (userId) => settled(() => selectSessions.all(userId)),
    touchSession: (id, lastSeenAt, expiresAt) => settled(() => void touchSession.run(lastSeenAt, expiresAt, id)),
    deleteSession: (id) => settled(() => void deleteSession.run(id)),
    isSessionLive: (id, at) => settled(() => liveSession.get(id, at) !== null),
    deleteSessionsOf: (userId) => settled(() => void deleteSessionsOf.run(userId)),

    insertToken: (row) => settled(() => void insertToken.run(row)),
    spendToken: (hash, at) => settled(() => spendToken.get(at, hash, at) ?? undefined),
    liveToken: (hash, at) => settled(() => liveToken.get(hash, at) ?? undefined),
    deleteUnusedTokensOf: (userId) => settled(() => void deleteTokensOf.run(userId)),
  }
}
