/** Now as ISO 8601 UTC with milliseconds; injected so tests can pin time. */
export type Clock = () => string

let lastMs = -1
let lastText = ''

/** Formatted once per millisecond: a busy server asks many times in each (every turn, every read mark). */
export const systemClock: Clock = () => {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastText = new Date(ms).toISOString()
  }
  return lastText
}
