import { A } from '@solidjs/router'
import { For, Show } from 'solid-js'
import type { Activity } from '../console-api.ts'
import { when } from '../parts.tsx'

/** The overview's card of failed LLM agent runs: how many in 30 days, the latest with why, each linked to its conversation on the desk. */
export function AgentFailures(props: { activity: Activity | undefined; botId: string }) {
  const total = () => (props.activity?.days ?? []).reduce((sum, day) => sum + (day.agent_failures ?? 0), 0)
  return (
    <section class="card agent-failures">
      <h2>Failed agent runs, last 30 days</h2>
      <p class={`stat ${total() > 0 ? 'status-failed' : ''}`} data-agent-failures>
        {props.activity ? total() : '…'}
      </p>
      <Show when={(props.activity?.recent_agent_failures?.length ?? 0) > 0} fallback={<p class="muted">None: every agent run reached the model.</p>}>
        <ul class="failures">
          <For each={props.activity?.recent_agent_failures}>
            {(failure) => (
              <li data-agent-failure={failure.kind}>
                <span class="muted">{when(failure.at)} · state “{failure.state}”</span>
                <br />
                <strong>{failure.kind}</strong>: {failure.message} · <A href={`/c/${failure.conversation_id}`}>the conversation</A>
              </li>
            )}
          </For>
        </ul>
        <p class="muted">
          Test the model on the <A href={`/console/bots/${props.botId}/integrations`}>Integrations</A> screen.
        </p>
      </Show>
    </section>
  )
}
