/** How much the logger writes; `silent`: nothing. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent'

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

let lastMs = 0
let lastIso = ''

/** Now in ISO 8601, formatted once per millisecond however many lines share it. */
function isoNow(): string {
  const ms = Date.now()
  if (ms !== lastMs) {
    lastMs = ms
    lastIso = new Date(ms).toISOString()
  }
  return lastIso
}

/** Structured logs: one JSON object per line, written through a buffered sink. */
export function createLogger(level: LogLevel, sink: LogSink = stdoutSink()): Logger {
  const threshold = RANK[level]
  const emit = (at: Exclude<LogLevel, 'silent'>, msg: string, fields?: LogFields) => {
    if (RANK[at] < threshold) return
    // The fields' own JSON after the three every line has, rather than a merged copy of them:
    // a line per request makes the copy the logger's largest cost. Callers never name a field
    // time, level or msg (a repeated key would read as the last one, as the copy had it).
    const head = `{"time":"${isoNow()}","level":"${at}","msg":${JSON.stringify(msg)}`
    const rest = fields ? JSON.stringify(fields) : '{}'
    sink.write(rest.length > 2 ? `${head},${rest.slice(1)}\n` : `${head}}\n`)
  }
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    flush: () => sink.flush(),
  }
}

/**
 * Batches lines in memory and writes them at most every 50 ms (or at 64 KB), so that a busy
 * server makes one system call per batch instead of one per log line.
 */
export function stdoutSink(): LogSink {
  const writer = Bun.stdout.writer()
  let pending: string[] = []
  let size = 0
  let timer: ReturnType<typeof setTimeout> | undefined
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = undefined
    if (pending.length === 0) return
    writer.write(pending.join(''))
    writer.flush()
    pending = []
    size = 0
  }
  return {
    write(line) {
      pending.push(line)
      size += line.length
      if (size >= 64 * 1024) flush()
      else timer ??= setTimeout(flush, 50)
    },
    flush,
  }
}

/** Keeps lines in memory: for tests that read what was logged. */
export function memorySink(): LogSink & { lines: string[] } {
  const lines: string[] = []
  return { lines, write: (line) => void lines.push(line), flush() {} }
}
