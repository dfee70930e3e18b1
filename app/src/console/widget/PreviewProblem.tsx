import { createSignal, onCleanup, Show } from 'solid-js'
import { t } from '../../i18n/language.ts'

/** What the preview page told about its socket: a refusal (a 4xxx close), or nothing once it connects. */
export interface Refusal {
  code: number
  reason: string
}

/** Widget close codes the admin can act on (server/protocol/close-codes.ts). */
const SWITCHED_OFF = [4002, 4009]
const ORIGIN_REFUSED = 4003
const UNKNOWN_KEY = 4001

/**
 * Listens to the framed preview page (same origin), which reports when the widget's socket
 * is refused and when it connects.
 */
export function previewProblems(frame: () => HTMLIFrameElement | undefined) {
  const [shown, setShown] = createSignal<Refusal | null>(null)
  const listen = (event: MessageEvent) => {
    const data = event.data as { type?: unknown; connected?: unknown; code?: unknown; reason?: unknown } | null
    if (event.origin !== window.location.origin || event.source !== frame()?.contentWindow || data?.type !== 'parley-preview') return
    setShown(data.connected === true ? null : { code: Number(data.code), reason: String(data.reason ?? '') })
  }
  window.addEventListener('message', listen)
  onCleanup(() => window.removeEventListener('message', listen))
  return { shown }
}

/** Why the preview cannot chat, in words the admin can act on. */
export function PreviewProblem(props: { problem: Refusal | null; onSwitchOn: () => void }) {
  return (
    <Show when={props.problem}>
      {(problem) => (
        <div class="notice" role="alert" data-preview-problem>
          <p>
            {t('widget.problem', { reason: problem().reason || t('widget.socketClosed', { code: String(problem().code) }) })}{' '}
            {SWITCHED_OFF.includes(problem().code)
              ? t('widget.problemOff')
              : problem().code === ORIGIN_REFUSED
                ? t('widget.problemOrigin')
                : problem().code === UNKNOWN_KEY
                  ? t('widget.problemGone')
                  : ''}
          </p>
          <Show when={SWITCHED_OFF.includes(problem().code)}>
            <button type="button" class="primary" onClick={() => props.onSwitchOn()}>
              {t('widget.switchOn')}
            </button>
          </Show>
        </div>
      )}
    </Show>
  )
}
