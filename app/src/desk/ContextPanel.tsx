import { useNavigate } from '@solidjs/router'
import { createResource, For, Show } from 'solid-js'
import type { Context } from '../types.ts'
import { AgentFailure } from './AgentFailure.tsx'
import { context } from './data.ts'
import { channelName, clock, ratingClass, ratingLabel } from './format.ts'
import { describeBrowser } from './user-agent.ts'
import { intlTag, t } from '../i18n/language.ts'

/**
 * Who the contact is (identity, verified or not), their details and when each was set, where
 * the conversation comes from, the page and browser of the widget, the visitor's rating, their earlier
 * conversations, and where the flow was (state, variables) at the handoff.
 */
export function ContextPanel(props: { conversationId: string; version: number; onClose: () => void }) {
  const [shown] = createResource(() => [props.conversationId, props.version] as const, ([id]) => context(id))
  const navigate = useNavigate()
  return (
    <aside class="context" aria-label={t('desk.context')}>
      <header>
        <h3>{t('desk.context')}</h3>
        <button type="button" class="link context-close" onClick={() => props.onClose()} aria-label={t('desk.ctx.hide')}>
          ✕
        </button>
      </header>
      <Show when={shown()} fallback={<p class="muted">{shown.error ? t('desk.ctx.failed') : t('shell.loading')}</p>}>
        {(info) => <ContextBody info={info()} open={(id) => navigate(`/c/${id}${window.location.search}`)} />}
      </Show>
    </aside>
  )
}

/** "Brazilian Portuguese · pt-BR": the tag named by the browser's Intl in the language shown, the tag beside it, never split at its hyphen. */
function LanguageName(props: { tag: string }) {
  const name = () => {
    try {
      const found = new Intl.DisplayNames([intlTag()], { type: 'language' }).of(props.tag)
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
      <h4>{t('desk.ctx.contact')}</h4>
      <dl>
        <dt>{t('desk.ctx.identity')}</dt>
        <dd data-field="identity">
          <Show when={identity()} fallback={t('desk.ctx.anonymous')}>
            {(known) => (
              <>
                {known().value} <span class={known().verified ? 'verified' : 'unverified'}>{known().verified ? t('desk.ctx.verified') : t('desk.ctx.unverified')}</span>
              </>
            )}
          </Show>
        </dd>
        <Show when={props.info.contact.locale}>
          {(locale) => (
            <>
              <dt>{t('desk.ctx.language')}</dt>
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
                <Show when={detail.set_at}>{(at) => <span class="muted set-at">{t('desk.ctx.setAt', { time: clock(at()) })}</span>}</Show>
              </dd>
            </>
          )}
        </For>
      </dl>
      <h4>{t('desk.conversation')}</h4>
      <dl>
        <dt>{t('desk.ctx.chatbot')}</dt>
        <dd>{props.info.conversation.chatbot.name}</dd>
        <dt>{t('desk.ctx.channel')}</dt>
        <dd>
          {channelName(props.info.conversation.channel)}
          <Show when={props.info.conversation.integration?.name}>{(name) => <> · {name()}</>}</Show>
        </dd>
        <dt>{t('desk.ctx.started')}</dt>
        <dd>{clock(props.info.conversation.created_at)}</dd>
        <Show when={props.info.visitor?.page_url}>
          {(url) => (
            <>
              <dt>{t('desk.ctx.page')}</dt>
              <dd class="page-url">{url()}</dd>
            </>
          )}
        </Show>
        <Show when={props.info.visitor?.user_agent}>
          {(agent) => (
            <>
              <dt>{t('desk.ctx.browser')}</dt>
              <dd class="user-agent" title={agent()}>
                {describeBrowser(agent())}
              </dd>
            </>
          )}
        </Show>
        <Show when={props.info.visitor?.address}>
          {(address) => (
            <>
              <dt>{t('desk.ctx.address')}</dt>
              <dd class="visitor-address">{address()}</dd>
            </>
          )}
        </Show>
        <Show when={props.info.rating}>
          {(rating) => (
            <>
              <dt>{t('desk.ctx.rating')}</dt>
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
            <h4>{flow().at_handoff ? t('desk.ctx.flowAtHandoff') : t('desk.ctx.flowNow')}</h4>
            <dl>
              <dt>{t('desk.ctx.flow')}</dt>
              <dd>
                {flow().name ?? flow().id}
                <Show when={flow().version !== null}> {t('desk.ctx.version', { version: String(flow().version) })}</Show>
              </dd>
              <dt>{t('desk.ctx.state')}</dt>
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
      <h4>{t('desk.ctx.earlier')}</h4>
      <Show when={props.info.earlier_conversations.length > 0} fallback={<p class="muted">{t('desk.ctx.none')}</p>}>
        <ul class="earlier">
          <For each={props.info.earlier_conversations}>
            {(earlier) => (
              <li>
                <button type="button" class="link" onClick={() => props.open(earlier.id)}>
                  {clock(earlier.created_at)} · {channelName(earlier.channel)} · {t(`desk.ctx.status.${earlier.status}`)}
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
    </>
  )
}
