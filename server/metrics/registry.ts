/**
 * Counters, histograms and gauges in the Prometheus text format (version 0.0.4). Written here
 * rather than taken from prom-client: the request path counts every answer, and a series here
 * is found by one Map lookup of its joined label values, where prom-client hashes a labels
 * object per call; exposition is a plain synchronous string.
 */

type Sample = { labels: readonly string[]; value: number }

interface Family {
  name: string
  help: string
  type: 'counter' | 'gauge' | 'histogram'
  render(lines: string[]): void
}

export type MetricsRegistry = ReturnType<typeof metricsRegistry>

/** Seconds: from a fast API answer to a slow model call. */
export const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

export function metricsRegistry() {
  const families: Family[] = []

  function add(family: Family): void {
    if (families.some((known) => known.name === family.name)) throw new Error(`metric ${family.name} is defined twice`)
    families.push(family)
  }

  return {
    /** A count that only goes up; `labels` holds the values of `labelNames`, in order. */
    counter(name: string, help: string, labelNames: readonly string[] = []) {
      const series = new Map<string, Sample>()
      add({
        name,
        help,
        type: 'counter',
        render: (lines) => {
          for (const { labels, value } of series.values()) lines.push(`${name}${labelText(labelNames, labels)} ${value}`)
        },
      })
      const seriesOf = (labels: readonly string[]): Sample => {
        const key = labels.join('\u0001')
        let found = series.get(key)
        if (!found) series.set(key, (found = { labels: [...labels], value: 0 }))
        return found
      }
      return {
        inc(labels: readonly string[] = [], by = 1): void {
          seriesOf(labels).value += by
        },
        /** The series of these labels, to count on without looking it up again (the request path keeps them). */
        series: seriesOf,
        /** Makes a series show as 0 before its first count, so that rate() sees its start. */
        touch(labels: readonly string[] = []): void {
          const key = labels.join('\u0001')
          if (!series.has(key)) series.set(key, { labels: [...labels], value: 0 })
        },
      }
    },

    /** Observations counted in cumulative buckets, with their sum and count. */
    histogram(name: string, help: string, labelNames: readonly string[] = [], buckets: readonly number[] = DEFAULT_BUCKETS) {
      const series = new Map<string, { labels: readonly string[]; counts: number[]; sum: number; count: number }>()
      add({
        name,
        help,
        type: 'histogram',
        render: (lines) => {
          for (const { labels, counts, sum, count } of series.values()) {
            let cumulative = 0
            buckets.forEach((bound, index) => {
              cumulative += counts[index] as number
              lines.push(`${name}_bucket${labelText([...labelNames, 'le'], [...labels, String(bound)])} ${cumulative}`)
            })
            lines.push(`${name}_bucket${labelText([...labelNames, 'le'], [...labels, '+Inf'])} ${count}`)
            lines.push(`${name}_sum${labelText(labelNames, labels)} ${sum}`)
            lines.push(`${name}_count${labelText(labelNames, labels)} ${count}`)
          }
        },
      })
      const seriesOf = (labels: readonly string[]) => {
        const key = labels.join('\u0001')
        let found = series.get(key)
        if (!found) series.set(key, (found = { labels: [...labels], counts: buckets.map(() => 0), sum: 0, count: 0 }))
        return {
          observe(value: number): void {
            const counted = found as { counts: number[]; sum: number; count: number }
            // Counted in the first bucket that holds it; render() accumulates.
            for (let index = 0; index < buckets.length; index++) {
              if (value <= (buckets[index] as number)) {
                ;(counted.counts[index] as number)++
                break
              }
            }
            counted.sum += value
            counted.count++
          },
        }
      }
      return {
        observe(labels: readonly string[], value: number): void {
          seriesOf(labels).observe(value)
        },
        /** The series of these labels, to observe on without looking it up again. */
        series: seriesOf,
      }
    },

    /** A value read when scraped: `read` gives each series' label values and value (none: the metric is absent). */
    gauge(name: string, help: string, labelNames: readonly string[], read: () => Iterable<readonly [readonly string[], number]>): void {
      add({
        name,
        help,
        type: 'gauge',
        render: (lines) => {
          for (const [labels, value] of read()) lines.push(`${name}${labelText(labelNames, labels)} ${value}`)
        },
      })
    },

    /** The exposition of every family, in the order they were defined. */
    render(): string {
      const lines: string[] = []
      for (const family of families) {
        const samples: string[] = []
        family.render(samples)
        if (samples.length === 0 && family.type === 'gauge') continue
        lines.push(`# HELP ${family.name} ${family.help.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')}`, `# TYPE ${family.name} ${family.type}`, ...samples)
      }
      return `${lines.join('\n')}\n`
    },
  }
}

function labelText(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return ''
  return `{${names.map((name, index) => `${name}="${escapeLabel(values[index] ?? '')}"`).join(',')}}`
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
}
