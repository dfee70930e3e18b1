import { For, onCleanup, onMount } from 'solid-js'
import { useModalFocus } from '../modal-focus.ts'

export const SHORTCUTS = [
  ['?', 'show or hide this list'],
  ['j / k', 'next / previous conversation'],
  ['1 – 5', 'Waiting, Mine, All open, With the bot, Closed'],
  ['/', 'search (in the reply box: saved replies)'],
  ['r', 'reply'],
  ['Esc', 'back to the list'],
] as const

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
    <div ref={dialog} class="overlay" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={(event) => event.target === event.currentTarget && props.onClose()}>
      <div class="dialog">
        <h2>Keyboard shortcuts</h2>
        <dl class="shortcuts">
          <For each={SHORTCUTS}>
            {([keys, what]) => (
              <>
                <dt>
                  <kbd>{keys}</kbd>
                </dt>
                <dd>{what}</dd>
              </>
            )}
          </For>
        </dl>
        <button type="button" onClick={() => props.onClose()}>
          Close
        </button>
      </div>
    </div>
  )
}
