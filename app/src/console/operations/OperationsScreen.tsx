import { createResource, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { ErrorLine, errorText, when } from '../parts.tsx'
import ScheduledBackups from './ScheduledBackups.tsx'
import { formatBytes, formatDuration, readLogLine } from './format.ts'

/** The installation: version, uptime, database, backups (scheduled and to download), the latest log lines. */
export default function OperationsScreen() {
  const [status] = createResource(() => consoleApi.operations())
  const [logs, { refetch }] = createResource(() => consoleApi.logs())
  const failure = () => (status.error ? errorText(status.error) : '')

  return (
    <>
      <h1>Operations</h1>
      <ErrorLine error={failure()} />
      <div class="grid-2">
        <section class="card">
          <h2>This installation</h2>
          <Show when={status()} fallback={<p class="loading">Loading…</p>}>
            {(s) => (
              <dl class="facts">
                <dt>Version</dt>
                <dd data-version>{s().version}</dd>
                <dt>Up for</dt>
                <dd data-uptime>{formatDuration(s().uptime_seconds)}</dd>
                <dt>Started</dt>
                <dd>{when(s().started_at)}</dd>
                <dt>Database</dt>
                <dd data-database>
                  {formatBytes(s().database_bytes)} <span class="muted">(+ {formatBytes(s().wal_bytes)} write-ahead log)</span>
                </dd>
              </dl>
            )}
          </Show>
        </section>
        <section class="card">
          <h2>Backup</h2>
          <p class="muted">
            A consistent, checked copy of the whole database, made while Parley runs. To restore one, stop Parley and run <code>parley restore FILE</code>.
          </p>
          <a class="button primary" href="/api/dev/v1/operations/backup" download="" data-backup>
            Download a backup
          </a>
          <Show when={status()}>{(s) => <ScheduledBackups backups={s().backups} />}</Show>
        </section>
      </div>
      <section class="card">
        <div class="actions">
          <h2>Latest log lines</h2>
          <button type="button" onClick={() => void refetch()}>
            Refresh
          </button>
        </div>
        <pre class="logs" data-logs tabindex="0">
          <For each={logs()?.lines ?? []}>{(line) => `${readLogLine(line)}\n`}</For>
        </pre>
      </section>
    </>
  )
}
