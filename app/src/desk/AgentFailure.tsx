import { Show } from 'solid-js'
import type { Context } from '../types.ts'
import { clock } from './format.ts'

/** The context panel's word on the bot's model: when its last run failed, at which state and why. */
export function AgentFailure(props: { failure: Context['agent_failure'] }) {
  return (
    <Show when={props.failure}>
      {(failure) => (
        <>
          <h4>Bot's model</h4>
          <p class="agent-failure" data-field="agent-failure">
            Failed {clock(failure().at)}
            {failure().state ? ` at state “${failure().state}”` : ''}: {failure().message}
          </p>
        </>
      )}
    </Show>
  )
}
