import type { OutboxTime } from '../../../server/outbox/outbox-time.ts'

/**
 * A clock that stands still until a test moves it, and timers that fire only when the clock
 * passes their time: backoffs of hours take no real time at all.
 */
export function fakeTime(start = Date.now()) {
  let now = start
  let nextId = 1
  let timers: { id: number; due: number; callback: () => void }[] = []

  const time: OutboxTime & { advance(ms: number): void; pendingTimers(): number } = {
    now: () => now,
    setTimeout(callback, ms) {
      const id = nextId++
      timers.push({ id, due: now + Math.max(0, ms), callback })
      return id
    },
    clearTimeout(handle) {
      timers = timers.filter((timer) => timer.id !== handle)
    },
    /** Moves the clock forward by `ms`, firing on the way, in time order, every timer that falls due. */
    advance(ms) {
      const end = now + ms
      for (;;) {
        const due = timers.filter((timer) => timer.due <= end).sort((a, b) => a.due - b.due || a.id - b.id)[0]
        if (!due) break
        timers = timers.filter((timer) => timer !== due)
        now = Math.max(now, due.due)
        due.callback()
      }
      now = end
    },
    pendingTimers: () => timers.length,
  }
  return time
}

export type FakeTime = ReturnType<typeof fakeTime>
