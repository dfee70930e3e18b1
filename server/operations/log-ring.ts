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
      slots[written % capacity] = line.endsWith('\n') ? line.slice(0, -1) : line
      written += 1
    },
    lines() {
      if (written <= capacity) return slots.slice(0, written)
      const start = written % capacity
      return [...slots.slice(start), ...slots.slice(0, start)]
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
