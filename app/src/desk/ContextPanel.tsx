import { useNavigate } from '@solidjs/router'
import { createResource, For, Show } from 'solid-js'
import type { Context } from '../types.ts'
import { AgentFailure } from './AgentFailure.tsx'
import { context } from './data.ts'
import { CHANNEL_NAMES, clock, ratingClass, ratingLabel } from './format.ts'
import { describeBrowser } from './user-agent.ts'

/**
 * Who the contact is (identity, verified or not), their details and when each was set, where
 * the conversation comes from, the page and browser of the widget, the visitor's rating, their earlier
 * conversations, and where the flow was (state, variables) at the handoff.
 */
export function ContextPanel(props: { conversationId: string; version: number; onClose: () => void }) {
  const [shown] = createResource(() => [props.conversationId, props.version] as const, ([id]) => context(id))
  const navigate = useNavigate()
  return (
    <aside class="context" aria-label="Context">
      <header>
        <h3>Context</h3>
        <button type="button" class="link context-close" onClick={() => props.onClose()} aria-label="Hide the context">
          ✕
        </button>
      </header>
      <Show when={shown()} fallback={<p class="muted">{shown.error ? 'The context could not be loaded.' : 'Loading…'}</p>}>
        {(info) => <ContextBody info={info()} open={(id) => navigate(`/c/${id}${window.location.search}`)} />}
      </Show>
    </aside>
  )
}

/** "Portuguese (Brazil) · pt-BR": the tag named in English by the browser's Intl, the tag beside it. */
/** "Brazilian Portuguese · pt-BR"; the tag is never split at its hyphen. */
function LanguageName(props: { tag: string }) {
  const name = () => {
    try {
      const found = new Intl.DisplayNames(['en'], { type: 'language' }).of(props.tag)
      return found && found !== props.tag ? `${found} · ` : ''
    } catch {
      return ''
    }
  }
  return (
    <>
      {name()}
      <span class="nowrap">{props.tag}</span>
    </>
  )
}

function ContextBody(props: { info: Context; open: (id: string) => void }) {
  const identity = () => props.info.contact.identity
  return (
    <>
      <h4>Contact</h4>
      <dl>
        <dt>Identity</dt>
        <dd data-field="identity">
          <Show when={identity()} fallback="anonymous visitor">
            {(known) => (
              <>
                {known().value} <span class={known().verified ? 'verified' : 'unverified'}>{known().verified ? 'verified' : 'not verified'}</span>
              </>
            )}
          </Show>
        </dd>
        <Show when={props.info.contact.locale}>
          {(locale) => (
            <>
              <dt>Language</dt>
              <dd data-field="language"><LanguageName tag={locale()} /></dd>
            </>
          )}
        </Show>
        <For each={props.info.contact.details}>
          {(detail) => (
            <>
              <dt>{detail.key}</dt>
              <dd>
                {String(detail.value)}
                <Show when={detail.set_at}>{(at) => <span class="muted set-at"> · set {clock(at())}</span>}</Show>
              </dd>
            </>
          )}
        </For>
      </dl>
      <h4>Conversation</h4>
      <dl>
        <dt>Chatbot</dt>
        <dd>{props.info.conversation.chatbot.name}</dd>
        <dt>Channel</dt>
        <dd>
          {CHANNEL_NAMES[props.info.conversation.channel] ?? props.info.conversation.channel}
          <Show when={props.info.conversation.integration?.name}>{(name) => <> · {name()}</>}</Show>
        </dd>
        <dt>Started</dt>
        <dd>{clock(props.info.conversation.created_at)}</dd>
        <Show when={props.info.visitor?.page_url}>
          {(url) => (
            <>
              <dt>Page</dt>
              <dd class="page-url">{url()}</dd>
            </>
          )}
        </Show>
        <Show when={props.info.visitor?.user_agent}>
          {(agent) => (
            <>
              <dt>Browser</dt>
              <dd class="user-agent" title={agent()}>
                {describeBrowser(agent())}
              </dd>
            </>
          )}
        </Show>
        <Show when={props.info.visitor?.address}>
          {(address) => (
            <>
              <dt>Address</dt>
              <dd class="visitor-address">{address()}</dd>
            </>
          )}
        </Show>
        <Show when={props.info.rating}>
          {(rating) => (
            <>
              <dt>Rating</dt>
              <dd data-field="rating" class={`rating-${ratingClass(rating())}`}>
                {ratingLabel(rating())}
                <Show when={rating().comment}>{(comment) => <q class="rating-comment">{comment()}</q>}</Show>
                <span class="muted set-at"> · {clock(rating().created_at)}</span>
              </dd>
            </>
          )}
        </Show>
      </dl>
      <AgentFailure failure={props.info.agent_failure} />
      <Show when={props.info.flow}>
        {(flow) => (
          <>
            <h4>Flow {flow().at_handoff ? 'at the handoff' : 'now'}</h4>
            <dl>
              <dt>Flow</dt>
              <dd>
                {flow().name ?? flow().id}
                <Show when={flow().version !== null}> v{flow().version}</Show>
              </dd>
              <dt>State</dt>
              <dd data-field="state">{flow().state ?? '—'}</dd>
              <For each={Object.entries(flow().variables)}>
                {([name, value]) => (
                  <>
                    <dt class="variable">{name}</dt>
                    <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
                  </>
                )}
              </For>
            </dl>
          </>
        )}
      </Show>
      <h4>Earlier conversations</h4>
      <Show when={props.info.earlier_conversations.length > 0} fallback={<p class="muted">None.</p>}>
        <ul class="earlier">
          <For each={props.info.earlier_conversations}>
            {(earlier) => (
              <li>
                <button type="button" class="link" onClick={() => props.open(earlier.id)}>
                  {clock(earlier.created_at)} · {CHANNEL_NAMES[earlier.channel] ?? earlier.channel} · {earlier.status}
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </>
  )
}
