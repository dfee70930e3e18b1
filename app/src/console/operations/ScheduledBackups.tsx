import { For, Show } from 'solid-js'
import type { ScheduledBackups as Backups } from '../console-api.ts'
import { when } from '../parts.tsx'
import { formatBytes, formatDuration, formatPeriod } from './format.ts'

/** The backups Parley writes itself (PARLEY_BACKUP_EVERY): where, how often, the ones kept, and a failure if the last one failed. */
export default function ScheduledBackups(props: { backups: Backups }) {
  return (
    <div class="scheduled-backups" data-scheduled-backups>
      <h3>Scheduled backups</h3>
      <Show
        when={props.backups.scheduled}
        fallback={
          <p class="muted" data-backups-off>
            Off. Set <code>PARLEY_BACKUP_EVERY</code> (such as <code>1d</code>) and Parley backs itself up, keeping the newest <code>PARLEY_BACKUP_KEEP</code>.
          </p>
        }
      >
        <p class="muted" data-backups-plan>
          Every {formatPeriod(props.backups.every_seconds ?? 0)} into <code>{props.backups.dir}</code>, keeping the newest {props.backups.keep}.{' '}
          {props.backups.running ? 'One is being written now.' : `Next: ${when(props.backups.next_at)}.`}
        </p>
        <Show when={props.backups.last_failure}>
          {(failure) => (
            <p class="form-error" role="alert" data-backup-failure>
              The backup of {when(failure().at)} failed: {failure().error}
            </p>
          )}
        </Show>
        <Show when={props.backups.files.length > 0} fallback={<p class="muted">None written yet.</p>}>
          <table class="table backups" data-backups>
            <thead>
              <tr>
                <th>Backup</th>
                <th>Size</th>
                <th>Age</th>
              </tr>
            </thead>
            <tbody>
              <For each={props.backups.files}>
                {(file) => (
                  <tr data-backup-file={file.name}>
                    <td>
                      <code>{file.name}</code>
                    </td>
                    <td data-size>{formatBytes(file.bytes)}</td>
                    <td data-age title={when(file.created_at)}>
                      {formatDuration(file.age_seconds)} ago
                    </td>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </Show>
      </Show>
    </div>
  )
}
