import { For, onCleanup, onMount } from 'solid-js'
import { useModalFocus } from '../modal-focus.ts'
import { t, type TextKey } from '../i18n/language.ts'

export const SHORTCUTS = [
  ['?', 'desk.shortcut.help'],
  ['j / k', 'desk.shortcut.move'],
  ['1 – 5', 'desk.shortcut.views'],
  ['/', 'desk.shortcut.search'],
  ['r', 'desk.shortcut.reply'],
  ['Esc', 'desk.shortcut.back'],
] as const satisfies readonly (readonly [string, TextKey])[]

interface Actions {
  help: () => void
  next: () => void
  previous: () => void
  view: (key: string) => void
  search: () => void
  reply: () => void
  back: () => void
}

/** Single-key shortcuts, ignored while typing in a field (except Esc, which leaves it). */
export function useShortcuts(actions: Actions): void {
  const handle = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return
    const target = event.target as HTMLElement | null
    const typing = target?.closest('input, textarea, select, [contenteditable="true"]')
    if (event.key === 'Escape') {
      if (typing) (target as HTMLElement).blur()
      else actions.back()
      return
    }
    if (typing) return
    const run = (action: () => void) => {
      event.preventDefault()
      action()
    }
    if (event.key === '?') run(actions.help)
    else if (event.key === 'j') run(actions.next)
    else if (event.key === 'k') run(actions.previous)
    else if (event.key === '/') run(actions.search)
    else if (event.key === 'r') run(actions.reply)
    else if (/^[1-5]$/.test(event.key)) run(() => actions.view(event.key))
  }
  onMount(() => document.addEventListener('keydown', handle))
  onCleanup(() => document.removeEventListener('keydown', handle))
}

export function Shortcuts(props: { onClose: () => void }) {
  let dialog: HTMLDivElement | undefined
  useModalFocus(() => dialog, () => props.onClose())
  return (
    <div ref={dialog} class="overlay" role="dialog" aria-modal="true" aria-label={t('desk.shortcuts')} onClick={(event) => event.target === event.currentTarget && props.onClose()}>
      <div class="dialog">
        <h2>{t('desk.shortcuts')}</h2>
        <dl class="shortcuts">
          <For each={SHORTCUTS}>
            {([keys, what]) => (
              <>
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{t(what)}</dd>
              </>
            )}
          </For>
        </dl>
        <button type="button" onClick={() => props.onClose()}>
          {t('desk.close')}
        </button>
      </div>
    </div>
  )
}
