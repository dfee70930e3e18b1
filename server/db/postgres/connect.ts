import { SQL } from 'bun'
import type { PostgresSettings } from '../database-config.ts'

/**
 * The pool every PostgreSQL store shares, made from the settings (docs/operations.md): its
 * size, the statement timeout each connection starts with, and TLS as Bun.sql's sslmode,
 * checked against the given certificate authority when there is one.
 */
export function connectPostgres(settings: PostgresSettings): SQL {
  return new SQL({
    url: settings.url,
    max: settings.poolSize,
    tls: settings.caFile ? withAuthority(settings.caFile, settings.tls) : settings.tls,
    connection: { statement_timeout: settings.statementTimeoutMs, application_name: 'parley' },
  })
}

/**
 * Bun.sql takes a certificate authority only in an options object, which means verify-full;
 * verify-ca is that with the host name left unchecked.
 */
function withAuthority(caFile: string, tls: PostgresSettings['tls']) {
  const checked = { ca: Bun.file(caFile), rejectUnauthorized: true }
  return tls === 'verify-ca' ? { ...checked, checkServerIdentity: () => undefined } : checked
}
