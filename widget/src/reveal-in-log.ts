/**
 * Scrolls the message log, and only the log, so that `bottom` is in view while `top` stays
 * in view too (the control that opened it). `scrollIntoView` would also scroll the host page
 * the widget is embedded in.
 */
export function revealInLog(top: HTMLElement, bottom: HTMLElement): void {
  const log = top.closest<HTMLElement>('.log')
  if (!log) return
  const view = log.getBoundingClientRect()
  const hiddenBelow = bottom.getBoundingClientRect().bottom - view.bottom
  if (hiddenBelow <= 0) return
  const roomAbove = top.getBoundingClientRect().top - view.top
  log.scrollTop += Math.max(0, Math.min(hiddenBelow, roomAbove))
}
