import type { SQL } from 'bun'
import type { OneTimeTokenRow, PeopleStore, SessionRow, SessionWithUser, UserRow } from './store.ts'

/**
 * E-mail addresses compare as lower(email) = lower($1), which the indexes on lower(email)
 * (migration 0012) serve; text orders in byte order (COLLATE "C"), as SQLite compares it.
 */
export function postgresPeopleStore(sql: SQL): PeopleStore {
  const one = async <Row>(rows: Promise<Row[]>) => (await rows)[0]
  const all = async <Row>(rows: Promise<Row[]>) => [...(await rows)]
  const count = async (rows: Promise<{ n: number }[]>) => (await rows)[0]?.n ?? 0
  return {
    async insertUser(row) {
      await sql`INSERT INTO users (id, workspace_id, email, display_name, role, password_hash, disabled_at, locale, created_at, updated_at)
        VALUES (${row.id}, ${row.workspace_id}, ${row.email}, ${row.display_name}, ${row.role}, ${row.password_hash}, ${row.disabled_at}, ${row.locale ?? null}, ${row.created_at}, ${row.updated_at})`
    },
    getUser: (workspaceId, id) => one(sql<UserRow[]>`SELECT * FROM users WHERE workspace_id = ${workspaceId} AND id = ${id}`),
    findUserByEmail: (workspaceId, email) => one(sql<UserRow[]>`SELECT * FROM users WHERE workspace_id = ${workspaceId} AND lower(email) = lower(${email})`),
    findUsersByEmail: (email) =>
      all(sql<UserRow[]>`SELECT * FROM users WHERE lower(email) = lower(${email}) ORDER BY created_at COLLATE "C", id COLLATE "C" LIMIT 10`),
    listUsers: (workspaceId, limit, offset) =>
      all(sql<UserRow[]>`SELECT * FROM users WHERE workspace_id = ${workspaceId} ORDER BY created_at COLLATE "C", id COLLATE "C" LIMIT ${limit} OFFSET ${offset}`),
    listAllUsers: () => all(sql<UserRow[]>`SELECT * FROM users ORDER BY workspace_id COLLATE "C", created_at COLLATE "C", id COLLATE "C"`),
    countUsers: (workspaceId) => count(sql`SELECT count(*)::int AS n FROM users WHERE workspace_id = ${workspaceId}`),
    countActiveAdmins: (workspaceId) =>
      count(sql`SELECT count(*)::int AS n FROM users WHERE workspace_id = ${workspaceId} AND role = 'admin' AND disabled_at IS NULL AND password_hash IS NOT NULL`),
    updateUser: (row) =>
      one(sql<UserRow[]>`UPDATE users SET display_name = ${row.display_name}, role = ${row.role}, disabled_at = ${row.disabled_at},
        password_hash = ${row.password_hash}, locale = ${row.locale ?? null}, updated_at = ${row.updated_at} WHERE workspace_id = ${row.workspace_id} AND id = ${row.id} RETURNING *`),

    async insertSession(row) {
      await sql`INSERT INTO sessions (id, hash, user_id, workspace_id, created_at, last_seen_at, expires_at, user_agent, address)
        VALUES (${row.id}, ${row.hash}, ${row.user_id}, ${row.workspace_id}, ${row.created_at}, ${row.last_seen_at}, ${row.expires_at}, ${row.user_agent}, ${row.address})`
    },
    findSession: (hash) =>
      one(sql<SessionWithUser[]>`SELECT sessions.*, users.role, users.disabled_at FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.hash = ${hash}`),
    listSessions: (userId) => all(sql<SessionRow[]>`SELECT * FROM sessions WHERE user_id = ${userId} ORDER BY last_seen_at COLLATE "C" DESC, id COLLATE "C"`),
    async touchSession(id, lastSeenAt, expiresAt) {
      await sql`UPDATE sessions SET last_seen_at = ${lastSeenAt}, expires_at = ${expiresAt} WHERE id = ${id}`
    },
    async deleteSession(id) {
      await sql`DELETE FROM sessions WHERE id = ${id}`
    },
    async isSessionLive(id, at) {
      const rows = await sql`SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ${id} AND s.expires_at > ${at} AND u.disabled_at IS NULL`
      return rows.length > 0
    },
    async deleteSessionsOf(userId) {
      await sql`DELETE FROM sessions WHERE user_id = ${userId}`
    },

    async insertToken(row) {
      await sql`INSERT INTO one_time_tokens (hash, purpose, workspace_id, user_id, created_at, expires_at)
        VALUES (${row.hash}, ${row.purpose}, ${row.workspace_id}, ${row.user_id}, ${row.created_at}, ${row.expires_at})`
    },
    spendToken: (hash, at) =>
      one(sql<OneTimeTokenRow[]>`UPDATE one_time_tokens SET used_at = ${at} WHERE hash = ${hash} AND used_at IS NULL AND expires_at > ${at} RETURNING *`),
    liveToken: (hash, at) => one(sql<OneTimeTokenRow[]>`SELECT * FROM one_time_tokens WHERE hash = ${hash} AND used_at IS NULL AND expires_at > ${at}`),
    async deleteUnusedTokensOf(userId) {
      await sql`DELETE FROM one_time_tokens WHERE user_id = ${userId} AND used_at IS NULL`
    },
  }
}
