import { For, Show } from 'solid-js'
import type { Chatbot } from '../types.ts'
import type { ListItem } from './data.ts'
import { CHANNEL_NAMES, clock, contactName, elapsed } from './format.ts'
import { unread } from './read-marks.ts'
import type { ViewId } from './views.ts'

/** The list of one view: who, what was said last, how long they have waited, unread marks. */
export function ConversationList(props: {
  items: ListItem[]
  loaded: boolean
  error: string
  view: ViewId
  selected?: string
  now: number
  bots: Chatbot[]
  onOpen: (item: ListItem) => void
}) {
  const botName = (id: string) => props.bots.find((bot) => bot.id === id)?.name ?? ''
  return (
    <section class="list" aria-label="Conversations">
      <Show when={props.error}>
        <p class="form-error" role="alert">
          {props.error}
        </p>
      </Show>
      <Show when={props.loaded && props.items.length === 0 && !props.error}>
        <p class="empty">{props.view === 'waiting' ? 'Nobody is waiting for a person.' : 'No conversations here.'}</p>
      </Show>
      <ul class="rows">
        <For each={props.items}>
          {(item) => (
            <li>
              <button
                type="button"
                class="row"
                data-conversation={item.id}
                classList={{ selected: props.selected === item.id, unread: unread(item) }}
                aria-current={props.selected === item.id ? 'true' : undefined}
                onClick={() => props.onOpen(item)}
              >
                <span class="row-top">
                  <span class="row-name">{contactName(item)}</span>
                  <Show when={item.status === 'handoff' && item.waiting_since} fallback={<span class="row-time">{clock(item.last_message_at)}</span>}>
                    <span class="wait" title="Waiting for a person">
                      waiting {elapsed(item.waiting_since!, props.now)}
                    </span>
                  </Show>
                </span>
                <span class="row-preview">{item.last_message ?? ''}</span>
                <span class="row-meta">
                  {botName(item.chatbot_id)} · {CHANNEL_NAMES[item.channel] ?? item.channel}
                  <Show when={unread(item)}>
                    <span class="unread-dot" aria-label="unread" />
                  </Show>
                </span>
              </button>
            </li>
          )}
        </For>
      </ul>
    </section>
  )
}
