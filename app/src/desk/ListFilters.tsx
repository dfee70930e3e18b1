import { createSignal, For, Show } from 'solid-js'
import type { Chatbot, Label } from '../types.ts'
import { t } from '../i18n/language.ts'
import { CHANNELS, channelName } from './format.ts'
import { type ListFilter, RATING_FILTERS, ratingFilterName, viewName, viewTitle, VIEWS, type ViewId } from './views.ts'

type Change = Partial<Record<'view' | 'bot' | 'channel' | 'rating' | 'label' | 'q', string | undefined>>

/** The views, the chatbot and channel filters and the search box; all kept in the URL. */
export function ListFilters(props: { filter: ListFilter; bots: Chatbot[]; labels: Label[]; counts: { waiting: number }; onChange: (change: Change) => void }) {
  const [typed, setTyped] = createSignal(props.filter.q ?? '')
  let timer: ReturnType<typeof setTimeout> | undefined
  const searchSoon = (text: string) => {
    setTyped(text)
    clearTimeout(timer)
    timer = setTimeout(() => props.onChange({ q: text.trim() || undefined }), 250)
  }
  return (
    <nav class="filters" aria-label={t('desk.filters')}>
      <div class="views" role="tablist" aria-label={t('desk.views')} onKeyDown={(event) => stepBetweenViews(event, props.filter.view, (view) => props.onChange({ view }))}>
        <For each={VIEWS}>
          {(view) => (
            <button
              type="button"
              role="tab"
              class="view"
              id={`view-${view.id}`}
              data-view={view.id}
              aria-selected={props.filter.view === view.id}
              aria-controls="conversation-list"
              tabindex={props.filter.view === view.id ? 0 : -1}
              title={t('desk.view.withKey', { title: viewTitle(view.id), key: view.key })}
              onClick={() => props.onChange({ view: view.id })}
            >
              {viewName(view.id)}
              <Show when={view.id === 'waiting' && props.counts.waiting > 0}>
                <span class="count">{props.counts.waiting}</span>
              </Show>
            </button>
          )}
        </For>
      </div>
      <input
        id="desk-search"
        type="search"
        placeholder={t('desk.searchPlaceholder')}
        aria-label={t('desk.searchLabel')}
        value={typed()}
        onInput={(event) => searchSoon(event.currentTarget.value)}
      />
      <div class="selects">
        <select aria-label={t('desk.chatbot')} value={props.filter.chatbot_id ?? ''} onChange={(event) => props.onChange({ bot: event.currentTarget.value || undefined })}>
          <option value="">{t('desk.allChatbots')}</option>
          <For each={props.bots}>{(bot) => <option value={bot.id}>{bot.name}</option>}</For>
        </select>
        <select aria-label={t('desk.channel')} value={props.filter.channel ?? ''} onChange={(event) => props.onChange({ channel: event.currentTarget.value || undefined })}>
          <option value="">{t('desk.allChannels')}</option>
          <For each={CHANNELS}>{(id) => <option value={id}>{channelName(id)}</option>}</For>
        </select>
        <select aria-label={t('desk.rating')} value={props.filter.rating ?? ''} onChange={(event) => props.onChange({ rating: event.currentTarget.value || undefined })}>
          <option value="">{t('desk.anyRating')}</option>
          <For each={RATING_FILTERS}>{(rating) => <option value={rating}>{ratingFilterName(rating)}</option>}</For>
        </select>
        <Show when={props.labels.length > 0 || props.filter.label_id}>
          <select aria-label={t('desk.labels.filter')} data-filter="label" value={props.filter.label_id ?? ''} onChange={(event) => props.onChange({ label: event.currentTarget.value || undefined })}>
            <option value="">{t('desk.labels.anyLabel')}</option>
            <For each={props.labels}>{(label) => <option value={label.id}>{label.name}</option>}</For>
          </select>
        </Show>
      </div>
    </nav>
  )
}

const STEPS: Record<string, (index: number) => number> = {
  ArrowDown: (index) => (index + 1) % VIEWS.length,
  ArrowRight: (index) => (index + 1) % VIEWS.length,
  ArrowUp: (index) => (index - 1 + VIEWS.length) % VIEWS.length,
  ArrowLeft: (index) => (index - 1 + VIEWS.length) % VIEWS.length,
  Home: () => 0,
  End: () => VIEWS.length - 1,
}

/** The tab pattern's keys: one Tab stop for the views, arrows (Home, End) pick and show the next. */
function stepBetweenViews(event: KeyboardEvent, current: ViewId, pick: (view: ViewId) => void): void {
  const step = STEPS[event.key]
  if (!step || event.altKey || event.ctrlKey || event.metaKey) return
  event.preventDefault()
  const next = VIEWS[step(VIEWS.findIndex((view) => view.id === current))]!
  pick(next.id)
  document.getElementById(`view-${next.id}`)?.focus()
}
