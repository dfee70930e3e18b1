import { A, useNavigate, useParams, useSearchParams } from '@solidjs/router'
import { createEffect, createResource, createSignal, on, onCleanup, onMount, Show } from 'solid-js'
import { loadMe, me, signOut } from '../session.ts'
import type { DeskConversation } from '../types.ts'
import { alerts } from './alerts.ts'
import { ConversationList } from './ConversationList.tsx'
import { ConversationView } from './ConversationView.tsx'
import { chatbots, labels, listConversations, people } from './data.ts'
import { ListFilters } from './ListFilters.tsx'
import { live } from './live.ts'
import { Shortcuts, useShortcuts } from './Shortcuts.tsx'
import { isView, type ListFilter, VIEWS, type ViewId } from './views.ts'
import { t } from '../i18n/language.ts'
import { LanguageMenu } from '../LanguageMenu.tsx'

/** Fetches at most once per this many milliseconds however many events arrive. */
const REFRESH_COALESCE_MS = 250

/**
 * The desk: views and filters, the list, the open conversation and its context. The URL
 * holds what is shown (/app/c/{conversation}?view=...), so a reload or a shared link opens
 * the same screen. One socket keeps it all current; on a phone one pane shows at a time.
 */
export function Desk() {
  const params = useParams<{ conversationId?: string }>()
  const [search, setSearch] = useSearchParams<{ view?: string; bot?: string; channel?: string; rating?: string; label?: string; q?: string }>()
  const navigate = useNavigate()
  const filter = (): ListFilter => ({
    view: isView(search.view) ? search.view : 'waiting',
    chatbot_id: search.bot || undefined,
    channel: search.channel || undefined,
    rating: search.rating || undefined,
    label_id: search.label || undefined,
    q: search.q || undefined,
  })
  const [bots] = createResource(chatbots, { initialValue: [] })
  const [team] = createResource(people, { initialValue: [] })
  const [workspaceLabels, { refetch: refetchLabels }] = createResource(labels, { initialValue: [] })
  const [items, setItems] = createSignal<DeskConversation[]>([])
  const [nextCursor, setNextCursor] = createSignal<string | null>(null)
  const [loaded, setLoaded] = createSignal(false)
  /** The view the rows shown were fetched for: until a switch's fetch answers, the old one. */
  const [listedView, setListedView] = createSignal<ViewId | null>(null)
  const [listError, setListError] = createSignal('')
  const [showHelp, setShowHelp] = createSignal(false)
  const [now, setNow] = createSignal(Date.now())
  const [fetchedAt, setFetchedAt] = createSignal(Date.now())
  const ticker = setInterval(() => setNow(Date.now()), 5_000)
  onCleanup(() => clearInterval(ticker))

  let generation = 0
  const refresh = async () => {
    const mine = ++generation
    try {
      const shown = filter()
      const page = await listConversations(shown)
      if (mine !== generation) return
      setItems(page.items)
      setListedView(shown.view)
      setNextCursor(page.next_cursor)
      setListError('')
      setFetchedAt(Date.now())
      setNow(Date.now())
      const plain = !shown.chatbot_id && !shown.channel && !shown.rating && !shown.q
      const [waiting, assigned] = await Promise.all([
        plain && shown.view === 'waiting' ? page : listConversations({ view: 'waiting' }),
        plain && shown.view === 'mine' ? page : listConversations({ view: 'mine' }),
      ])
      if (mine === generation) alerts.seeQueues(waiting.items, assigned.items)
    } catch (error) {
      if (mine === generation) setListError(error instanceof Error ? error.message : t('desk.listFailed'))
    } finally {
      if (mine === generation) setLoaded(true)
    }
  }
  let pending: ReturnType<typeof setTimeout> | undefined
  const refreshSoon = () => {
    if (pending) return
    pending = setTimeout(() => {
      pending = undefined
      void refresh()
    }, REFRESH_COALESCE_MS)
  }
  const loadMore = async () => {
    const cursor = nextCursor()
    if (!cursor) return
    const page = await listConversations(filter(), cursor)
    const known = new Set(items().map((item) => item.id))
    setItems([...items(), ...page.items.filter((item) => !known.has(item.id))])
    setNextCursor(page.next_cursor)
  }
  createEffect(on(() => JSON.stringify(filter()), () => void refresh()))

  const connection = live(() => void loadMe())
  onCleanup(() => connection.close())
  onCleanup(
    connection.listen((event) => {
      if (event.type === 'reload' || event.type === 'conversation' || event.type === 'timeline') refreshSoon()
      // Lists are ordered by conversation, not by activity: a message changes a row only if
      // that row is shown or counted (the many visitors chatting with the bot cost nothing).
      if (event.type === 'message' && (items().some((item) => item.id === event.conversation_id) || alerts.counts(event.conversation_id))) refreshSoon()
      if (event.type === 'conversation' && event.status === 'handoff' && event.change === 'status' && event.assignee_id === null) alerts.handoff(event.conversation_id)
    }),
  )
  createEffect(() => connection.viewing(params.conversationId ?? null))

  const open = (item: Pick<DeskConversation, 'id'>) => navigate(`/c/${item.id}${window.location.search}`)
  const closeConversation = () => navigate(`/${window.location.search}`)
  const move = (step: number) => {
    const list = items()
    if (list.length === 0) return
    const index = list.findIndex((item) => item.id === params.conversationId)
    const next = list[Math.min(list.length - 1, Math.max(0, index < 0 ? 0 : index + step))]
    if (next) open(next)
  }
  useShortcuts({
    help: () => setShowHelp((shown) => !shown),
    next: () => move(1),
    previous: () => move(-1),
    view: (key) => {
      const view = VIEWS.find((candidate) => candidate.key === key)
      if (view) setSearch({ view: view.id })
    },
    search: () => document.querySelector<HTMLInputElement>('#desk-search')?.focus(),
    reply: () => document.querySelector<HTMLTextAreaElement>('#composer')?.focus(),
    back: () => (showHelp() ? setShowHelp(false) : closeConversation()),
  })
  onMount(() => alerts.start())
  onCleanup(() => alerts.stop())

  return (
    <div class="desk" classList={{ 'conversation-open': Boolean(params.conversationId) }}>
      <Show when={connection.state() === 'reconnecting'}>
        <div class="banner" role="status">
          {t('desk.reconnecting')}
        </div>
      </Show>
      <header class="topbar">
        <strong class="brand">Parley</strong>
        <span class="spacer" />
        <button type="button" class="link" data-action="alerts" onClick={() => void alerts.enable()} title={t('desk.alertsTitle')}>
          {alerts.enabled() ? t('desk.alertsOn') : t('desk.alertsOff')}
        </button>
        <button type="button" class="link" data-action="sound" aria-pressed={alerts.sound()} onClick={() => alerts.toggleSound()} title={t('desk.soundTitle')}>
          {alerts.sound() ? t('desk.soundOn') : t('desk.soundOff')}
        </button>
        <button type="button" class="link" data-action="shortcuts" onClick={() => setShowHelp(true)} aria-label={t('desk.shortcuts')} title={t('desk.shortcutsTitle')}>
          ?
        </button>
        <Show when={me()?.user.role === 'admin'}>
          <A class="link" href="/console" data-nav="console">
            {t('shell.console')}
          </A>
        </Show>
        <span class="who" title={me()?.user.email}>
          {me()?.user.display_name}
        </span>
        <LanguageMenu />
        <button type="button" class="link" onClick={() => void signOut()}>
          {t('shell.signOut')}
        </button>
      </header>
      <ListFilters filter={filter()} bots={bots()} labels={workspaceLabels()} counts={{ waiting: alerts.waitingCount() }} onChange={(change) => setSearch(change)} />
      <ConversationList
        items={items()}
        loaded={loaded()}
        error={listError()}
        view={filter().view}
        listedView={listedView()}
        selected={params.conversationId}
        me={me()?.user.display_name ?? null}
        now={now()}
        fetchedAt={fetchedAt()}
        hasMore={Boolean(nextCursor())}
        onMore={() => void loadMore()}
        onOpen={open}
      />
      <Show when={params.conversationId} keyed>
        {(conversationId) => (
          <ConversationView conversationId={conversationId} connection={connection} team={team()} labels={workspaceLabels()} onLabelCreated={() => void refetchLabels()} onBack={closeConversation} onChanged={refreshSoon} />
        )}
      </Show>
      <Show when={!params.conversationId}>
        <section class="conversation empty-pane">
          <p>{t('desk.pickOne')}</p>
        </section>
      </Show>
      <Show when={showHelp()}>
        <Shortcuts onClose={() => setShowHelp(false)} />
      </Show>
    </div>
  )
}
