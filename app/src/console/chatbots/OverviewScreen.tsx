import { A, useParams } from '@solidjs/router'
import { createResource, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { BotTabs, when } from '../parts.tsx'
import { AgentFailures } from './AgentFailures.tsx'
import { dayBars } from './day-chart.ts'
import { number, rich, t } from '../../i18n/language.ts'

const W = 600
const H = 140

const TOKENS_H = 60
const count = { format: (value: number) => number(value) }

/** One chatbot at a glance: conversations per day over 30 days, who waits, visitor satisfaction, agent token usage, its flows. */
export default function OverviewScreen() {
  const params = useParams<{ botId: string }>()
  const [bot] = createResource(() => params.botId, consoleApi.chatbot)
  const [activity] = createResource(() => params.botId, consoleApi.activity)
  const [flows] = createResource(() => params.botId, consoleApi.flows)
  const chart = () => dayBars(activity()?.days ?? [], W, H)
  const total = () => (activity()?.days ?? []).reduce((sum, day) => sum + day.conversations, 0)
  const tokenChart = () => dayBars(activity()?.days ?? [], W, TOKENS_H, (day) => day.agent_tokens)
  const usage = () => activity()?.agent_usage
  const ratings = () => activity()?.ratings
  // The list has no versions: each published flow is read (a chatbot has a handful).
  const [published] = createResource(
    () => flows()?.items.filter((flow) => flow.status === 'published'),
    (items) => Promise.all(items.map((flow) => consoleApi.flow(params.botId, flow.id))),
  )

  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <h1>{bot()?.name ?? t('overview.chatbot')}</h1>
      <div class="grid-2">
        <section class="card">
          <h2>{t('overview.conversations')}</h2>
          <p class="stat" data-total>{total()}</p>
          <svg class="chart" viewBox={`0 0 ${W} ${H + 16}`} role="img" aria-label={t('overview.chartLabel', { total: total() })} preserveAspectRatio="none">
            <For each={chart().bars}>
              {(bar) => (
                <rect x={bar.x} y={bar.y} width={bar.width} height={bar.height} data-date={bar.date} data-count={bar.count}>
                  <title>{`${bar.date}: ${bar.count}`}</title>
                </rect>
              )}
            </For>
            <text class="axis" x="0" y={H + 13}>
              {activity()?.days[0]?.date ?? ''}
            </text>
            <text class="axis" x={W} y={H + 13} text-anchor="end">
              {t('overview.today')}
            </text>
          </svg>
          <p class="muted">{t('overview.busiest', { day: chart().max === 1 && total() === 0 ? t('overview.busiestNone') : t('overview.busiestCount', { count: chart().max }) })}</p>
        </section>
        <section class="card">
          <h2>{t('overview.waiting')}</h2>
          <p class="stat" data-waiting>
            {activity()?.waiting ?? '…'}
          </p>
          <p class="muted" data-open-handoffs={activity()?.open_handoffs}>
            {rich('overview.openHandoffs', { count: count.format(activity()?.open_handoffs ?? 0), waiting: String(activity()?.waiting ?? 0), desk: <A href="/">{t('overview.desk')}</A> }, activity()?.open_handoffs ?? 0)}
          </p>
        </section>
        <section class="card" data-csat>
          <h2>{t('overview.satisfaction')}</h2>
          <p class="stat" data-csat-value>
            {ratings() ? (ratings()!.csat === null ? t('overview.noRatings') : t('overview.csat', { percent: Math.round(ratings()!.csat! * 100) })) : '…'}
          </p>
          <p class="muted" data-ratings>
            {ratings()
              ? ratings()!.count > 0
                ? t('overview.ratings', { good: ratings()!.good, neutral: ratings()!.neutral, bad: ratings()!.bad, count: ratings()!.count })
                : t('overview.howRated')
              : ''}
            <Show when={(ratings()?.count ?? 0) > 0}>
              {' '}
              · <A href={`/?view=closed&rating=any&bot=${params.botId}`}>{t('overview.readThem')}</A>
            </Show>
          </p>
        </section>
        <section class="card usage">
          <h2>{t('overview.tokens')}</h2>
          <p class="stat" data-agent-tokens>
            {usage() ? count.format(usage()?.total_tokens ?? 0) : '…'}
          </p>
          <p class="muted" data-agent-usage>
            {usage()
              ? t('overview.usage', { prompt: usage()?.prompt_tokens ?? 0, completion: usage()?.completion_tokens ?? 0, runs: usage()?.runs ?? 0 })
              : ''}
          </p>
          <Show when={(usage()?.total_tokens ?? 0) > 0}>
            <svg class="chart tokens" viewBox={`0 0 ${W} ${TOKENS_H}`} role="img" aria-label={t('overview.tokensLabel')} preserveAspectRatio="none">
              <For each={tokenChart().bars}>
                {(bar) => (
                  <rect x={bar.x} y={bar.y} width={bar.width} height={bar.height} data-date={bar.date} data-tokens={bar.count}>
                    <title>{t('overview.tokensBar', { date: bar.date, count: bar.count })}</title>
                  </rect>
                )}
              </For>
            </svg>
          </Show>
        </section>
        <AgentFailures activity={activity()} botId={params.botId} />
        <section class="card">
          <h2>{t('overview.published')}</h2>
          <Show when={(published()?.length ?? 0) > 0} fallback={<p class="muted">{t('overview.noPublished')}</p>}>
            <ul>
              <For each={published()}>
                {(flow) => (
                  <li data-published-flow={flow.name}>
                    <A href={`/console/bots/${params.botId}/flows/${flow.id}`}>{flow.name}</A> {t('overview.version', { version: String(flow.published_version) })}
                    {flow.id === bot()?.entry_flow_id ? t('overview.entry') : ''} <span class="muted">{flow.type}{flow.has_unpublished_changes ? t('overview.unpublished') : ''}</span>
                  </li>
                )}
              </For>
            </ul>
          </Show>
          <p class="muted">{t('overview.createdAt', { time: when(bot()?.created_at ?? null) })}</p>
        </section>
      </div>
    </>
  )
}
