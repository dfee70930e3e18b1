export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KB', 'MB', 'GB', 'TB']
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit += 1
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`
}

export function formatDuration(seconds: number): string {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  if (days > 0) return `${days} d ${hours} h`
  if (hours > 0) return `${hours} h ${minutes} min`
  if (minutes > 0) return `${minutes} min`
  return `${seconds} s`
}

/** A period as set (30 s, 15 min, 6 h, 1 d, 1 d 12 h). */
export function formatPeriod(seconds: number): string {
  const parts: string[] = []
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['min', 60], ['s', 1]] as const) {
    const count = Math.floor(seconds / size)
    seconds -= count * size
    if (count > 0) parts.push(`${count} ${unit}`)
  }
  return parts.join(' ') || '0 s'
}

/** A JSON log line as a person reads it: time, level, message, then the other fields. */
export function readLogLine(line: string): string {
  try {
    const { time, level, msg, ...fields } = JSON.parse(line) as Record<string, unknown>
    const rest = Object.entries(fields).map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    return [String(time ?? ''), String(level ?? '').toUpperCase(), String(msg ?? ''), ...rest].join(' ')
  } catch {
    return line
  }
}
