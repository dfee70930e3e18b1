import { Show } from 'solid-js'
import type { Context } from '../types.ts'
import { clock } from './format.ts'
import { t } from '../i18n/language.ts'

/** The context panel's word on the bot's model: when its last run failed, at which state and why. */
export function AgentFailure(props: { failure: Context['agent_failure'] }) {
  return (
    <Show when={props.failure}>
      {(failure) => (
        <>
          <h4>{t('desk.modelHeading')}</h4>
          <p class="agent-failure" data-field="agent-failure">
            {failure().state
              ? t('desk.modelFailedAt', { time: clock(failure().at), state: failure().state as string, reason: failure().message })
              : t('desk.modelFailed', { time: clock(failure().at), reason: failure().message })}
          </p>
        </>
      )}
    </Show>
  )
}
