import type { BackupsStatus } from '../backups/schedule.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { MetricsRegistry } from './registry.ts'

export interface AppMetricsDeps {
  registry: MetricsRegistry
  events: EventBus
  version: string
  widgetSockets: () => number
  deskSockets: () => number
  /** Deliveries waiting in the outbox, by kind. */
  outboxPending: () => { kind: string; n: number }[]
  databaseBytes: () => number
  walBytes: () => number
  backups: () => BackupsStatus
  nowMs?: () => number
}

const DELIVERY_KINDS = ['webhook', 'chatapp'] as const
const ATTEMPT_RESULTS = ['delivered', 'retry', 'failed'] as const
/** A model run's time: seconds to a minute and more (tools, retries). */
const RUN_BUCKETS = [0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120] as const

/**
 * What an operator graphs besides requests: open sockets, messages by channel, the outbox,
 * LLM agent runs and the tokens they used, the database and the backups. Counts come from
 * the domains' events as they happen (since this process started, as Prometheus counters
 * are); levels are read when scraped.
 */
export function appMetrics({ registry, events, version, widgetSockets, deskSockets, outboxPending, databaseBytes, walBytes, backups, nowMs = Date.now }: AppMetricsDeps): () => void {
  const startedSeconds = Math.round((nowMs() - process.uptime() * 1000) / 1000)
  registry.gauge('parley_build_info', 'The running Parley: its version as a label, value 1.', ['version'], () => [[[version], 1]])
  registry.gauge('process_start_time_seconds', 'When this process started, in seconds since the epoch.', [], () => [[[], startedSeconds]])
  registry.gauge('process_resident_memory_bytes', 'Resident memory of this process.', [], () => [[[], process.memoryUsage().rss]])
  registry.gauge('parley_widget_sockets_open', 'Widget sockets (visitors) open now.', [], () => [[[], widgetSockets()]])
  registry.gauge('parley_desk_sockets_open', 'Desk sockets (signed-in people) open now.', [], () => [[[], deskSockets()]])

  const messages = registry.counter('parley_messages_total', 'Messages stored, by channel and by who wrote them.', ['channel', 'role'])
  const attempts = registry.counter('parley_outbox_attempts_total', 'Outbox delivery attempts, by kind and result (delivered, retry: tried again later, failed: given up).', ['kind', 'result'])
  for (const kind of DELIVERY_KINDS) for (const result of ATTEMPT_RESULTS) attempts.touch([kind, result])
  registry.gauge('parley_outbox_pending', 'Deliveries waiting in the outbox, by kind.', ['kind'], () => {
    const counts = new Map<string, number>(DELIVERY_KINDS.map((kind) => [kind, 0]))
    for (const { kind, n } of outboxPending()) counts.set(kind, n)
    return [...counts].map(([kind, n]) => [[kind], n] as const)
  })
  const runs = registry.counter('parley_agent_runs_total', 'LLM agent runs, by how the model ended them (answer, exit, failed).', ['outcome'])
  for (const outcome of ['answer', 'exit', 'failed']) runs.touch([outcome])
  const runTime = registry.histogram('parley_agent_run_duration_seconds', 'Time an LLM agent run took, model and tool calls included.', [], RUN_BUCKETS)
  const tokens = registry.counter('parley_model_tokens_total', 'Tokens the models reported using, by kind.', ['kind'])
  for (const kind of ['prompt', 'completion']) tokens.touch([kind])

  registry.gauge('parley_database_bytes', 'The database file (parley.db), without its write-ahead log.', [], () => [[[], databaseBytes()]])
  registry.gauge('parley_database_wal_bytes', 'The write-ahead log beside the database.', [], () => [[[], walBytes()]])
  registry.gauge('parley_backups_kept', 'Scheduled backups in PARLEY_BACKUP_DIR (absent when none are scheduled).', [], () => {
    const status = backups()
    return status.scheduled ? [[[], status.files.length]] : []
  })
  registry.gauge('parley_backup_newest_timestamp_seconds', 'When the newest scheduled backup was taken (absent when there is none).', [], () => {
    const newest = backups().files[0]
    return newest ? [[[], Date.parse(newest.created_at) / 1000]] : []
  })
  registry.gauge('parley_backup_newest_age_seconds', 'Age of the newest scheduled backup (absent when there is none).', [], () => {
    const newest = backups().files[0]
    return newest ? [[[], newest.age_seconds]] : []
  })
  registry.gauge('parley_backup_last_failed', '1 when the last scheduled backup failed, else 0 (absent when none are scheduled).', [], () => {
    const status = backups()
    return status.scheduled ? [[[], status.last_failure ? 1 : 0]] : []
  })

  const off = [
    events.on('conversation.messages', ({ conversation, messages: stored }) => {
      for (const message of stored) messages.inc([conversation.channel, message.role])
    }),
    events.on('outbox.attempted', ({ kind, result }) => attempts.inc([kind, result])),
    events.on('autopilot.run_ended', ({ outcome, durationMs, promptTokens, completionTokens }) => {
      runs.inc([outcome])
      runTime.observe([], durationMs / 1000)
      if (promptTokens > 0) tokens.inc(['prompt'], promptTokens)
      if (completionTokens > 0) tokens.inc(['completion'], completionTokens)
    }),
  ]
  return () => {
    for (const unsubscribe of off) unsubscribe()
  }
}
