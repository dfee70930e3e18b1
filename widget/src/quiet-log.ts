const quieted = new WeakMap<HTMLElement, number>()

/**
 * A chat log is a live region (aria-live="polite"): what is added to it is read out. History
 * drawn again (the first page, a page fetched again after a gap, earlier messages) is not
 * news, so the log is silent (aria-live="off") while it is drawn and speaks again two frames
 * later, once the browser has taken the change in. Call it just before the history is drawn
 * (the widget's log and the desk's conversation share it).
 */
export function quietLog(log: HTMLElement): void {
  quieted.set(log, (quieted.get(log) ?? 0) + 1)
  log.setAttribute('aria-live', 'off')
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      const left = (quieted.get(log) ?? 1) - 1
      quieted.set(log, left)
      if (left === 0) log.setAttribute('aria-live', 'polite')
    }),
  )
}
