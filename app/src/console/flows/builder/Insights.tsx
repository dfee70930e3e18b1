import { createSignal, For, Show } from 'solid-js'
import { api } from '../../../api.ts'
import { errorText } from '../../parts.tsx'
import type { NodeInsight } from './canvas/NodeCard.tsx'
import { t } from '../../../i18n/language.ts'

export interface InsightsShown {
  states: Map<string, NodeInsight>
  /** Times taken, by edge id (`from|way`). */
  ways: Map<string, number>
}

interface FlowInsights {
  version: number | null
  since: string
  until: string
  started: number
  states: (NodeInsight & { state: string; left: number; conversations: number })[]
  ways: { from: string | null; way: string; to: string; times: number }[]
}

const PERIODS = [
  { days: 1, label: 'the last 24 hours' },
  { days: 7, label: 'the last 7 days' },
  { days: 30, label: 'the last 30 days' },
  { days: 90, label: 'the last 90 days' },
]

/**
 * What real conversations did in the live version, on the canvas: per state how many came in
 * and how many stopped there (drop-off), handoffs and LLM agent failures; per edge how often
 * it was taken (GET .../insights).
 */
export function Insights(props: { botId: string; flowId: string; publishedVersion: number | null; onShow: (shown: InsightsShown | null) => void }) {
  const [days, setDays] = createSignal(0)
  const [summary, setSummary] = createSignal('')
  const [error, setError] = createSignal('')
  const load = async (period: number) => {
    setDays(period)
    setError('')
    if (period === 0) {
      setSummary('')
      return props.onShow(null)
    }
    try {
      const since = new Date(Date.now() - period * 86_400_000).toISOString()
      const found = await api<FlowInsights>('GET', `/chatbots/${props.botId}/flows/${props.flowId}/insights?since=${encodeURIComponent(since)}`)
      const states = new Map(found.states.map((state) => [state.state, state]))
      const ways = new Map(found.ways.filter((way) => way.from !== null).map((way) => [`${way.from}|${way.way}`, way.times]))
      setSummary(`version ${found.version}: ${found.started} conversation${found.started === 1 ? '' : 's'} started`)
      props.onShow({ states, ways })
    } catch (failure) {
      setError(errorText(failure))
      props.onShow(null)
    }
  }
  return (
    <div class="insights-bar" data-insights-bar>
      <label>
        {t('builder.insights')}{' '}
        <select aria-label={t('builder.insightsLabel')} value={days()} onChange={(event) => void load(Number(event.currentTarget.value))} disabled={props.publishedVersion === null}>
          <option value={0}>{props.publishedVersion === null ? t('builder.publishFirst') : t('builder.hidden')}</option>
          <For each={PERIODS}>{(period) => <option value={period.days}>{period.label}</option>}</For>
        </select>
      </label>
      <Show when={summary()}>
        <span class="muted" data-insights-summary>
          {summary()}
        </span>
      </Show>
      <Show when={error()}>
        <span class="form-error">{error()}</span>
      </Show>
    </div>
  )
}
