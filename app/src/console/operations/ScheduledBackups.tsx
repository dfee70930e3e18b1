import { For, Show } from 'solid-js'
import type { ScheduledBackups as Backups } from '../console-api.ts'
import { when } from '../parts.tsx'
import { formatBytes, formatDuration, formatPeriod } from './format.ts'
import { rich, t } from '../../i18n/language.ts'

/** The backups Parley writes itself (PARLEY_BACKUP_EVERY): where, how often, the ones kept, and a failure if the last one failed. */
export default function ScheduledBackups(props: { backups: Backups }) {
  return (
    <div class="scheduled-backups" data-scheduled-backups>
      <h3>{t('ops.scheduled')}</h3>
      <Show
        when={props.backups.scheduled}
        fallback={
          <p class="muted" data-backups-off>
            {rich('ops.off', { every: <code>PARLEY_BACKUP_EVERY</code>, example: <code>1d</code>, keep: <code>PARLEY_BACKUP_KEEP</code> })}
          </p>
        }
      >
        <p class="muted" data-backups-plan>
          {rich('ops.plan', { period: formatPeriod(props.backups.every_seconds ?? 0), dir: <code>{props.backups.dir}</code>, keep: String(props.backups.keep) })}{' '}
          {props.backups.running ? t('ops.writing') : t('ops.next', { time: when(props.backups.next_at) })}
        </p>
        <Show when={props.backups.last_failure}>
          {(failure) => (
            <p class="form-error" role="alert" data-backup-failure>
              {t('ops.failed', { time: when(failure().at), reason: failure().error })}
            </p>
          )}
        </Show>
        <Show when={props.backups.files.length > 0} fallback={<p class="muted">{t('ops.noneYet')}</p>}>
          <table class="table backups" data-backups>
            <thead>
              <tr>
                <th>{t('ops.file')}</th>
                <th>{t('ops.size')}</th>
                <th>{t('ops.age')}</th>
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
                      {t('ops.ago', { time: formatDuration(file.age_seconds) })}
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
