import type { LogSink } from '../support/logger.ts'

export const RECENT_LOG_LINES = 200

/** The last lines the logger wrote, kept in memory for the console: a fixed ring, never growing. */
export interface LogRing {
  write(line: string): void
  /** Oldest first, each without its line break. */
  lines(): string[]
}

export function logRing(capacity = RECENT_LOG_LINES): LogRing {
  const slots: string[] = new Array(capacity)
  let written = 0
  return {
    write(line) {
      // Kept as written: the line break is taken off when the console asks, not per line.
      slots[written % capacity] = line
      written += 1
    },
    lines() {
      const oldestFirst = written <= capacity ? slots.slice(0, written) : [...slots.slice(written % capacity), ...slots.slice(0, written % capacity)]
      return oldestFirst.map((line) => (line.endsWith('\n') ? line.slice(0, -1) : line))
    },
  }
}

/** A sink that also keeps each line in the ring: what the console shows is exactly what was logged. */
export function ringedSink(sink: LogSink, ring: LogRing): LogSink {
  return {
    write(line) {
      ring.write(line)
      sink.write(line)
    },
    flush: () => sink.flush(),
  }
}
