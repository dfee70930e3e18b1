import type { PostgresSettings } from '../db/database-config.ts'

/**
 * What `parley backup` and `parley restore` say when the data is in PostgreSQL: they copy the
 * SQLite file, and a PostgreSQL database is backed up with its own tools, which take a
 * consistent snapshot while Parley keeps writing. The commands name the server, user and
 * database but never the password (PGPASSWORD or ~/.pgpass supply it), so the advice can be
 * pasted into a shell history or a ticket.
 */
export function postgresBackupAdvice(command: 'backup' | 'restore', database: PostgresSettings, file: string | undefined): string {
  const target = file ?? 'FILE'
  const where = connectionArguments(database).join(' ')
  if (command === 'backup') {
    return `parley backup copies the SQLite file, but this Parley keeps its data in PostgreSQL: back it up with pg_dump, which reads one consistent snapshot while Parley runs: pg_dump --format=custom --file=${quoted(target)} ${where} (the password from PGPASSWORD or ~/.pgpass). Nothing was written.`
  }
  return `parley restore replaces the SQLite file, but this Parley keeps its data in PostgreSQL: stop Parley, then restore a pg_dump file with pg_restore --clean --if-exists --no-owner ${where} ${quoted(target)} (the password from PGPASSWORD or ~/.pgpass). Nothing was changed.`
}

function connectionArguments(database: PostgresSettings): string[] {
  const url = new URL(database.url)
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''))
  return [
    `--host=${quoted(url.hostname.replace(/^\[|\]$/g, ''))}`,
    `--port=${url.port || '5432'}`,
    ...(url.username ? [`--username=${quoted(decodeURIComponent(url.username))}`] : []),
    `--dbname=${quoted(name)}`,
  ]
}

/** A shell word: as is when it holds only safe characters, else in single quotes. */
function quoted(word: string): string {
  return /^[A-Za-z0-9._\/:@%+=,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`
}
