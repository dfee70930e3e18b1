import { type BeforeLeaveEventArgs, useBeforeLeave } from '@solidjs/router'
import { createSignal, onCleanup, Show } from 'solid-js'
import { Confirm } from './parts.tsx'
import { t } from '../i18n/language.ts'

/**
 * Asks before a screen with unsaved changes is left: inside the app with a dialog of its own
 * (the route waits for the answer), and when the tab is closed or reloaded with the browser's
 * own question (the only one a page may ask then).
 */
export function LeaveUnsaved(props: { when: () => boolean }) {
  const [leaving, setLeaving] = createSignal<BeforeLeaveEventArgs | null>(null)
  useBeforeLeave((event) => {
    if (!props.when() || event.defaultPrevented) return
    event.preventDefault()
    setLeaving(event)
  })
  const onUnload = (event: BeforeUnloadEvent) => {
    if (!props.when()) return
    event.preventDefault()
    // Older Chromium asks only when returnValue is set.
    event.returnValue = ''
  }
  window.addEventListener('beforeunload', onUnload)
  onCleanup(() => window.removeEventListener('beforeunload', onUnload))
  return (
    <Show when={leaving()}>
      {(event) => (
        <Confirm
          title={t('console.leave.title')}
          confirm={t('console.leave.confirm')}
          onConfirm={() => {
            // Read before the dialog goes: its accessor is stale once `leaving` is cleared.
            const leave = event()
            setLeaving(null)
            leave.retry(true)
          }}
          onCancel={() => setLeaving(null)}
        >
          <p>{t('console.leave.body')}</p>
        </Confirm>
      )}
    </Show>
  )
}
