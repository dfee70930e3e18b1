import { A } from '@solidjs/router'
import { createSignal, type JSX } from 'solid-js'
import { useModalFocus } from '../modal-focus.ts'
import { errorText } from './error-text.ts'
import { intlTag, t } from '../i18n/language.ts'

/** Small pieces every console screen uses. */

export { errorText }

/**
 * The error line of a screen's actions: `act` clears it, runs the work and, when the work
 * fails, shows why. It answers whether the work succeeded (a refused change can leave the
 * form as typed); `setError` is there for a reason found before any request.
 */
export function createAction() {
  const [error, setError] = createSignal('')
  const act = async (work: () => Promise<unknown>): Promise<boolean> => {
    setError('')
    try {
      await work()
      return true
    } catch (failure) {
      setError(errorText(failure))
      return false
    }
  }
  return { error, setError, act }
}

/** A secret shown this once, with Copy and Done; `mark` names the data attribute that finds it. */
export function ShownOnce(props: { value: string; mark: string; onDone: () => void; children?: JSX.Element }) {
  return (
    <>
      <p class="secret" {...{ [`data-${props.mark}`]: '' }}>
        {props.value}
      </p>
      {props.children}
      <div class="actions">
        <CopyButton text={() => props.value} />
        <button type="button" onClick={() => props.onDone()}>
          {t('console.done')}
        </button>
      </div>
    </>
  )
}

export { ErrorLine } from '../ErrorLine.tsx'

/** A yes-or-no question that says what the answer does. */
export function Confirm(props: { title: string; children: JSX.Element; confirm: string; onConfirm: () => void; onCancel: () => void }) {
  let dialog: HTMLDivElement | undefined
  useModalFocus(() => dialog, () => props.onCancel())
  return (
    <div ref={dialog} class="dialog" role="dialog" aria-modal="true" aria-label={props.title}>
      <div>
        <h2>{props.title}</h2>
        {props.children}
        <div class="actions">
          <button type="button" class="danger" onClick={() => props.onConfirm()}>
            {props.confirm}
          </button>
          <button type="button" data-autofocus onClick={() => props.onCancel()}>
            {t('console.cancel')}
          </button>
        </div>
      </div>
    </div>
  )
}

export function CopyButton(props: { text: () => string; label?: string }) {
  const [copied, setCopied] = createSignal(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text())
      setCopied(true)
      setTimeout(() => setCopied(false), 1500)
    } catch {
      setCopied(false)
    }
  }
  return (
    <button type="button" onClick={() => void copy()}>
      {copied() ? t('console.copied') : (props.label ?? t('console.copy'))}
    </button>
  )
}

/** The tabs of one chatbot's screens. */
export function BotTabs(props: { botId: string; name?: string }) {
  const base = () => `/console/bots/${props.botId}`
  return (
    <>
      <p class="muted">
        <A href="/console">{t('console.chatbots')}</A> / {props.name ?? '…'}
      </p>
      <nav class="tabs" aria-label={t('console.chatbot')}>
        <A href={base()} end>
          {t('console.tab.overview')}
        </A>
        <A href={`${base()}/widget`}>{t('console.tab.widget')}</A>
        <A href={`${base()}/flows`}>{t('console.tab.flows')}</A>
        <A href={`${base()}/integrations`}>{t('console.tab.integrations')}</A>
        <A href={`${base()}/hours`}>{t('hours.tab')}</A>
      </nav>
    </>
  )
}

/** A ref that brings a line shown in answer to a click into view (a result below the fold is no answer). */
export const intoView = (element: HTMLElement): void => queueMicrotask(() => element.scrollIntoView({ block: 'nearest' }))

export function when(iso: string | null): string {
  if (!iso) return '—'
  return new Date(iso).toLocaleString(intlTag())
}
