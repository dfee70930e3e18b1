import { onCleanup, onMount } from 'solid-js'

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/**
 * What a modal dialog owes the keyboard: the focus moves into it when it opens, Tab and
 * Shift+Tab go round inside it (it starts on its `data-autofocus` element, else the first), Escape closes it, and the focus goes back to where it was
 * (the button that opened it) when it closes. Call it in the dialog's component with a
 * getter of its element.
 */
export function useModalFocus(dialog: () => HTMLElement | undefined, onEscape: () => void): void {
  const before = document.activeElement as HTMLElement | null
  const inside = () => [...(dialog()?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])].filter((element) => element.offsetParent !== null)
  const keyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onEscape()
      return
    }
    if (event.key !== 'Tab') return
    const focusable = inside()
    if (focusable.length === 0) return event.preventDefault()
    const first = focusable[0]!
    const last = focusable.at(-1)!
    const active = document.activeElement
    if (event.shiftKey && (active === first || !dialog()?.contains(active))) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && (active === last || !dialog()?.contains(active))) {
      event.preventDefault()
      first.focus()
    }
  }
  onMount(() => {
    ;(dialog()?.querySelector<HTMLElement>('[data-autofocus]') ?? inside()[0])?.focus()
    // Captured on the document: the dialog's keys come before the page's own shortcuts.
    document.addEventListener('keydown', keyDown, true)
  })
  onCleanup(() => {
    document.removeEventListener('keydown', keyDown, true)
    if (before?.isConnected) before.focus()
  })
}
