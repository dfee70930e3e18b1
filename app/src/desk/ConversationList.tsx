import { For, Show } from 'solid-js'
import type { DeskConversation } from '../types.ts'
import { t } from '../i18n/language.ts'
import { channelName, clock, contactName, duration, ratingClass, ratingLabel, senderOf } from './format.ts'
import type { ViewId } from './views.ts'
import { RowLabels } from './Labels.tsx'

/** The list of one view: who, what was said last, how long they have waited, unread marks. */
export function ConversationList(props: {
  items: DeskConversation[]
  loaded: boolean
  error: string
  view: ViewId
  /** The view the rows belong to; differs from `view` while a switch is being fetched. */
  listedView: ViewId | null
  selected?: string
  /** The signed-in person's name: their own replies read "You". */
  me?: string | null
  /** When the rows' wait times were measured against, so they keep counting between fetches. */
  now: number
  fetchedAt: number
  hasMore: boolean
  onMore: () => void
  onOpen: (item: DeskConversation) => void
}) {
  const waited = (item: DeskConversation) => duration((item.waiting_seconds ?? 0) + (props.now - props.fetchedAt) / 1000)
  return (
    <section class="list" id="conversation-list" role="tabpanel" aria-label={t('desk.list')} data-view={props.listedView ?? undefined} aria-busy={props.listedView !== props.view}>
      <Show when={props.error}>
        <p class="form-error" role="alert">
          {props.error}
        </p>
      </Show>
      <Show when={props.loaded && props.listedView === props.view && props.items.length === 0 && !props.error}>
        <p class="empty">{props.view === 'waiting' ? t('desk.nobodyWaiting') : t('desk.noConversations')}</p>
      </Show>
      <ul class="rows">
        <For each={props.items}>
          {(item) => (
            <li>
              <button
                type="button"
                class="row"
                data-conversation={item.id}
                classList={{ selected: props.selected === item.id, unread: item.unread }}
                aria-current={props.selected === item.id ? 'true' : undefined}
                onClick={() => props.onOpen(item)}
              >
                <span class="row-top">
                  <span class="row-name">{contactName(item.contact)}</span>
                  <Show when={item.waiting_seconds !== null} fallback={<span class="row-time">{clock(item.last_message_at)}</span>}>
                    <span class="wait" title={t('desk.waitTitle')}>
                      {t('desk.waited', { time: waited(item) })}
                    </span>
                  </Show>
                </span>
                <span class="row-preview">
                  <Show when={item.last_message && senderOf(item.last_message, props.me ?? null)}>{(sender) => <span class="row-sender">{t('desk.senderSays', { sender: sender() })}</span>}</Show>
                  {item.last_message?.preview ?? ''}
                </span>
                <span class="row-meta">
                  {item.chatbot_name} · {channelName(item.channel)}
                  <Show when={item.assignee}>{(assignee) => <span class="assignee"> · {assignee().display_name}</span>}</Show>
                  <Show when={item.rating}>
                    {(rating) => (
                      <span class={`row-rating rating-${ratingClass(rating())}`} title={rating().comment ?? t('desk.ratedByVisitor')}>
                        {' '}
                        · {ratingLabel(rating())}
                      </span>
                    )}
                  </Show>
                </span>
                <RowLabels labels={item.labels ?? []} />
              </button>
            </li>
          )}
        </For>
      </ul>
      <Show when={props.hasMore}>
        <button type="button" class="more" onClick={() => props.onMore()}>
          {t('desk.loadMore')}
        </button>
      </Show>
    </section>
  )
}
