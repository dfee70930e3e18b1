import { A } from '@solidjs/router'
import { For, Show } from 'solid-js'
import type { Activity } from '../console-api.ts'
import { when } from '../parts.tsx'
import { rich, t } from '../../i18n/language.ts'

/** The overview's card of failed LLM agent runs: how many in 30 days, the latest with why, each linked to its conversation on the desk. */
export function AgentFailures(props: { activity: Activity | undefined; botId: string }) {
  const total = () => (props.activity?.days ?? []).reduce((sum, day) => sum + (day.agent_failures ?? 0), 0)
  return (
    <section class="card agent-failures">
      <h2>{t('overview.failures')}</h2>
      <p class={`stat ${total() > 0 ? 'status-failed' : ''}`} data-agent-failures>
        {props.activity ? total() : '…'}
      </p>
      <Show when={(props.activity?.recent_agent_failures?.length ?? 0) > 0} fallback={<p class="muted">{t('overview.noFailures')}</p>}>
        <ul class="failures">
          <For each={props.activity?.recent_agent_failures}>
            {(failure) => (
              <li data-agent-failure={failure.kind}>
                <span class="muted">{t('overview.failureState', { time: when(failure.at), state: failure.state })}</span>
                <br />
                <strong>{failure.kind}</strong>: {failure.message} · <A href={`/c/${failure.conversation_id}`}>{t('overview.theConversation')}</A>
              </li>
            )}
          </For>
        </ul>
        <p class="muted">
          {rich('overview.testModel', { link: <A href={`/console/bots/${props.botId}/integrations`}>{t('overview.integrations')}</A> })}
        </p>
      </Show>
    </section>
  )
}
