import { createResource, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { ErrorLine, errorText, when } from '../parts.tsx'
import ScheduledBackups from './ScheduledBackups.tsx'
import { formatBytes, formatDuration, readLogLine } from './format.ts'
import { rich, t } from '../../i18n/language.ts'

/** The installation: version, uptime, database, backups (scheduled and to download), the latest log lines. */
export default function OperationsScreen() {
  const [status] = createResource(() => consoleApi.operations())
  const [logs, { refetch }] = createResource(() => consoleApi.logs())
  const failure = () => (status.error ? errorText(status.error) : '')

  return (
    <>
      <h1>{t('ops.title')}</h1>
      <ErrorLine error={failure()} />
      <div class="grid-2">
        <section class="card">
          <h2>{t('ops.installation')}</h2>
          <Show when={status()} fallback={<p class="loading">{t('console.loading')}</p>}>
            {(s) => (
              <dl class="facts">
                <dt>{t('ops.version')}</dt>
                <dd data-version>{s().version}</dd>
                <dt>{t('ops.upFor')}</dt>
                <dd data-uptime>{formatDuration(s().uptime_seconds)}</dd>
                <dt>{t('ops.started')}</dt>
                <dd>{when(s().started_at)}</dd>
                <dt>{t('ops.database')}</dt>
                <dd data-database>
                  <span class="database-location" data-database-engine={s().database.engine}>
                    {s().database.engine === 'sqlite' ? t('ops.sqlite', { location: s().database.location }) : t('ops.postgresql', { location: s().database.location })}
                  </span>
                  <br />
                  {formatBytes(s().database_bytes)}{' '}
                  <Show when={s().database.engine === 'sqlite'}>
                    <span class="muted">{t('ops.wal', { size: formatBytes(s().wal_bytes) })}</span>
                  </Show>
                </dd>
              </dl>
            )}
          </Show>
        </section>
        <section class="card">
          <h2>{t('ops.backup')}</h2>
          <p class="muted">
            {rich('ops.backupIntro', { command: <code>parley restore FILE</code> })}
          </p>
          <a class="button primary" href="/api/dev/v1/operations/backup" download="" data-backup>
            {t('ops.download')}
          </a>
          <Show when={status()}>{(s) => <ScheduledBackups backups={s().backups} />}</Show>
        </section>
      </div>
      <section class="card">
        <div class="actions">
          <h2>{t('ops.logs')}</h2>
          <button type="button" onClick={() => void refetch()}>
            {t('ops.refresh')}
          </button>
        </div>
        <pre class="logs" data-logs tabindex="0">
          <For each={logs()?.lines ?? []}>{(line) => `${readLogLine(line)}\n`}</For>
        </pre>
      </section>
    </>
  )
}
