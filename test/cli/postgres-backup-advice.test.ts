import { describe, expect, test } from 'bun:test'
import { postgresBackupAdvice } from '../../server/cli/postgres-backup-advice.ts'
import type { PostgresSettings } from '../../server/db/database-config.ts'

const on = (url: string): PostgresSettings => ({ kind: 'postgres', url, poolSize: 10, statementTimeoutMs: 0, tls: 'prefer', caFile: null })

describe('what parley backup and restore say on PostgreSQL', () => {
  test.each([
    ['a plain URL', 'postgres://parley:pw@db:5432/parley', 'out.dump', '--file=out.dump --host=db --port=5432 --username=parley --dbname=parley'],
    ['no port: the default', 'postgres://app:pw@10.0.0.5/chat', 'out.dump', '--host=10.0.0.5 --port=5432 --username=app --dbname=chat'],
    ['no user: pg_dump picks its own', 'postgres://db/chat', 'out.dump', '--host=db --port=5432 --dbname=chat'],
    ['an IPv6 host without its brackets', 'postgres://u:pw@[::1]:5433/chat', 'out.dump', '--host=::1 --port=5433'],
    ['a name and a file a shell would split, quoted', 'postgres://u:pw@db/my%20db', "it's here.dump", `--file='it'\\''s here.dump' --host=db --port=5432 --username=u --dbname='my db'`],
  ])('%s', (_, url, file, expected) => {
    const advice = postgresBackupAdvice('backup', on(url), file)
    expect(advice).toContain(expected)
    expect(advice).not.toContain('pw')
  })

  test('without a file the command shows where it goes', () => {
    expect(postgresBackupAdvice('backup', on('postgres://u:pw@db/chat'), undefined)).toContain('--file=FILE ')
    expect(postgresBackupAdvice('restore', on('postgres://u:pw@db/chat'), undefined)).toMatch(/--dbname=chat FILE /)
  })
})
