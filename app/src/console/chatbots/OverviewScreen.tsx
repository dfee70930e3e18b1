import { A, useParams } from '@solidjs/router'
import { createResource, For, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { BotTabs, when } from '../parts.tsx'
import { AgentFailures } from './AgentFailures.tsx'
import { dayBars } from './day-chart.ts'

const W = 600
const H = 140

const TOKENS_H = 60
const count = new Intl.NumberFormat('en')
const plural = (n: number, noun: string) => `${count.format(n)} ${noun}${n === 1 ? '' : 's'}`

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
      <h1>{bot()?.name ?? 'Chatbot'}</h1>
      <div class="grid-2">
        <section class="card">
          <h2>Conversations, last 30 days</h2>
          <p class="stat" data-total>{total()}</p>
          <svg class="chart" viewBox={`0 0 ${W} ${H + 16}`} role="img" aria-label={`Conversations per day for 30 days, ${total()} in all`} preserveAspectRatio="none">
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
              today
            </text>
          </svg>
          <p class="muted">Busiest day: {chart().max === 1 && total() === 0 ? 'none yet' : `${chart().max} conversations`}</p>
        </section>
        <section class="card">
          <h2>Waiting for a person</h2>
          <p class="stat" data-waiting>
            {activity()?.waiting ?? '…'}
          </p>
          <p class="muted" data-open-handoffs={activity()?.open_handoffs}>
            {plural(activity()?.open_handoffs ?? 0, 'open handoff')}, {activity()?.waiting ?? 0} not answered yet: answer them in the <A href="/">desk</A>.
          </p>
        </section>
        <section class="card" data-csat>
          <h2>Visitor satisfaction, last 30 days</h2>
          <p class="stat" data-csat-value>
            {ratings() ? (ratings()!.csat === null ? 'no ratings' : `${Math.round(ratings()!.csat! * 100)}% CSAT`) : '…'}
          </p>
          <p class="muted" data-ratings>
            {ratings()
              ? ratings()!.count > 0
                ? `${ratings()!.good} good, ${ratings()!.neutral} neutral, ${ratings()!.bad} bad of ${plural(ratings()!.count, 'rating')}`
                : 'Visitors rate a conversation once it is closed, when the widget asks (Rating at the end, on the Widget tab).'
              : ''}
            <Show when={(ratings()?.count ?? 0) > 0}>
              {' '}
              · <A href={`/?view=closed&rating=any&bot=${params.botId}`}>read them in the desk</A>
            </Show>
          </p>
        </section>
        <section class="card usage">
          <h2>Agent tokens, last 30 days</h2>
          <p class="stat" data-agent-tokens>
            {usage() ? count.format(usage()?.total_tokens ?? 0) : '…'}
          </p>
          <p class="muted" data-agent-usage>
            {usage()
              ? `${count.format(usage()?.prompt_tokens ?? 0)} prompt + ${count.format(usage()?.completion_tokens ?? 0)} completion tokens in ${count.format(usage()?.runs ?? 0)} LLM agent runs`
              : ''}
          </p>
          <Show when={(usage()?.total_tokens ?? 0) > 0}>
            <svg class="chart tokens" viewBox={`0 0 ${W} ${TOKENS_H}`} role="img" aria-label="Agent tokens per day for 30 days" preserveAspectRatio="none">
              <For each={tokenChart().bars}>
                {(bar) => (
                  <rect x={bar.x} y={bar.y} width={bar.width} height={bar.height} data-date={bar.date} data-tokens={bar.count}>
                    <title>{`${bar.date}: ${bar.count} tokens`}</title>
                  </rect>
                )}
              </For>
            </svg>
          </Show>
        </section>
        <AgentFailures activity={activity()} botId={params.botId} />
        <section class="card">
          <h2>Published flows</h2>
          <Show when={(published()?.length ?? 0) > 0} fallback={<p class="muted">No published flow: new conversations get no bot answer.</p>}>
            <ul>
              <For each={published()}>
                {(flow) => (
                  <li data-published-flow={flow.name}>
                    <A href={`/console/bots/${params.botId}/flows/${flow.id}`}>{flow.name}</A> version {flow.published_version}
                    {flow.id === bot()?.entry_flow_id ? ' (entry flow)' : ''} <span class="muted">{flow.type}{flow.has_unpublished_changes ? ', unpublished changes' : ''}</span>
                  </li>
                )}
              </For>
            </ul>
          </Show>
          <p class="muted">Created {when(bot()?.created_at ?? null)}</p>
        </section>
      </div>
    </>
  )
}
