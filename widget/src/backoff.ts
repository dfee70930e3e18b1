const BASE_DELAY_MS = 500
const MAX_DELAY_MS = 30_000

/** Wait before try number `attempt` (0 = first retry): half the ceiling plus a random half. */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempt))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}
