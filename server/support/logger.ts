import type { LogLevel } from '../config.ts'

export type LogFields = Record<string, unknown>

export interface Logger {
  debug(msg: string, fields?: LogFields): void
  info(msg: string, fields?: LogFields): void
  warn(msg: string, fields?: LogFields): void
  error(msg: string, fields?: LogFields): void
  flush(): void
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export type LogSink = { write(line: string): void; flush(): void }

/** Structured logs: one JSON object per line, written through a buffered sink. */
export function createLogger(level: LogLevel, sink: LogSink = stdoutSink()): Logger {
  const threshold = RANK[level]
  const emit = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (RANK[at] < threshold) return
    sink.write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })}\n`)
  }
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    flush: () => sink.flush(),
  }
}

/** Batches writes so that a busy server does not make one system call per log line. */
function stdoutSink(): LogSink {
  const writer = Bun.stdout.writer()
  let scheduled = false
  const flush = () => {
    scheduled = false
    writer.flush()
  }
  return {
    write(line) {
      writer.write(line)
      if (!scheduled) {
        scheduled = true
        setTimeout(flush, 50).unref?.()
      }
    },
    flush,
  }
}

/** Keeps lines in memory: for tests that read what was logged. */
export function memorySink(): LogSink & { lines: string[] } {
  const lines: string[] = []
  return { lines, write: (line) => void lines.push(line), flush() {} }
}
