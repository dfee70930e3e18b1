import { For, Show } from 'solid-js'
import type { Conversation } from '../types.ts'
import { CHANNEL_NAMES, clock } from './format.ts'

/** Who the contact is and where the conversation comes from. */
export function ContextPanel(props: { conversation: Conversation; onClose: () => void }) {
  const details = () => Object.entries(props.conversation.contact?.details ?? {})
  return (
    <aside class="context" aria-label="Context">
      <header>
        <h3>Context</h3>
        <button type="button" class="link context-close" onClick={() => props.onClose()} aria-label="Hide the context">
          ✕
        </button>
      </header>
      <dl>
        <dt>Identity</dt>
        <dd>{props.conversation.contact?.external_id ?? 'anonymous visitor'}</dd>
        <dt>Channel</dt>
        <dd>{CHANNEL_NAMES[props.conversation.channel] ?? props.conversation.channel}</dd>
        <dt>Started</dt>
        <dd>{clock(props.conversation.created_at)}</dd>
        <Show when={props.conversation.flow_id}>
          <dt>Flow</dt>
          <dd>
            {props.conversation.flow_id} v{props.conversation.flow_version}
          </dd>
        </Show>
      </dl>
      <h4>Contact details</h4>
      <Show when={details().length > 0} fallback={<p class="muted">None yet.</p>}>
        <dl>
          <For each={details()}>
            {([name, value]) => (
              <>
                <dt>{name}</dt>
                <dd>{String(value)}</dd>
              </>
            )}
          </For>
        </dl>
      </Show>
    </aside>
  )
}
