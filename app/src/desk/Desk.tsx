import { useNavigate, useParams, useSearchParams } from '@solidjs/router'
import { createEffect, createResource, createSignal, on, onCleanup, onMount, Show } from 'solid-js'
import { me, signOut } from '../session.ts'
import { alerts } from './alerts.ts'
import { ConversationList } from './ConversationList.tsx'
import { ConversationView } from './ConversationView.tsx'
import { chatbots, type ListItem, listConversations } from './data.ts'
import { ListFilters } from './ListFilters.tsx'
import { live } from './live.ts'
import { Shortcuts, useShortcuts } from './Shortcuts.tsx'
import { isView, type ListFilter, VIEWS } from './views.ts'

/**
 * The desk: views and filters, the list, the open conversation and its context. The URL
 * holds what is shown (/app/c/{chatbot}/{conversation}?view=...), so a reload or a shared
 * link opens the same screen. On a phone one pane shows at a time.
 */
export function Desk() {
  const params = useParams<{ chatbotId?: string; conversationId?: string }>()
  const [search, setSearch] = useSearchParams<{ view?: string; bot?: string; channel?: string; q?: string }>()
  const navigate = useNavigate()
  const filter = (): ListFilter => ({
    view: isView(search.view) ? search.view : 'waiting',
    chatbot_id: search.bot || undefined,
    channel: search.channel || undefined,
    q: search.q || undefined,
  })
  const [bots, { mutate: setBots }] = createResource(chatbots, { initialValue: [] })
  const [items, setItems] = createSignal<ListItem[]>([])
  const [loaded, setLoaded] = createSignal(false)
  const [listError, setListError] = createSignal('')
  const [showHelp, setShowHelp] = createSignal(false)
  const [now, setNow] = createSignal(Date.now())
  const ticker = setInterval(() => setNow(Date.now()), 15_000)
  onCleanup(() => clearInterval(ticker))

  let generation = 0
  const refresh = async () => {
    const mine = ++generation
    try {
      // A chatbot made since the desk opened must show up too.
      const fresh = await chatbots()
      if (mine !== generation) return
      if (JSON.stringify(fresh) !== JSON.stringify(bots())) setBots(fresh)
      const page = await listConversations(filter(), fresh)
      if (mine !== generation) return
      setItems(page.items)
      setListError('')
      const unfiltered = filter().view === 'waiting' && !filter().chatbot_id && !filter().channel && !filter().q
      alerts.seeWaiting(unfiltered ? page.items : (await listConversations({ view: 'waiting' }, fresh)).items)
    } catch (error) {
      if (mine === generation) setListError(error instanceof Error ? error.message : 'The list could not be loaded.')
    } finally {
      if (mine === generation) setLoaded(true)
    }
  }
  createEffect(
    on(
      () => JSON.stringify(filter()),
      () => void refresh(),
    ),
  )
  const connection = live()
  onCleanup(connection.close)
  connection.onChange(() => void refresh())

  const open = (item: Pick<ListItem, 'chatbot_id' | 'id'>) => navigate(`/c/${item.chatbot_id}/${item.id}${window.location.search}`)
  const closeConversation = () => navigate(`/${window.location.search}`)
  const setView = (view: string) => setSearch({ view })
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
      if (view) setView(view.id)
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
          Reconnecting… changes will show when the connection is back.
        </div>
      </Show>
      <header class="topbar">
        <strong class="brand">Parley</strong>
        <span class="spacer" />
        <button type="button" class="link" onClick={() => alerts.enable()} title="Notify me of new handoffs while this tab is hidden">
          {alerts.enabled() ? 'Alerts on' : 'Turn on alerts'}
        </button>
        <button type="button" class="link" onClick={() => setShowHelp(true)} aria-label="Keyboard shortcuts" title="Keyboard shortcuts (?)">
          ?
        </button>
        <span class="who" title={me()?.user.email}>
          {me()?.user.display_name}
        </span>
        <button type="button" class="link" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <ListFilters filter={filter()} bots={bots()} counts={{ waiting: alerts.waitingCount() }} onChange={(change) => setSearch(change)} />
      <ConversationList
        items={items()}
        loaded={loaded()}
        error={listError()}
        view={filter().view}
        selected={params.conversationId}
        now={now()}
        bots={bots()}
        onOpen={open}
      />
      <Show when={params.chatbotId && params.conversationId ? { chatbotId: params.chatbotId, conversationId: params.conversationId } : null} keyed>
        {(opened) => <ConversationView chatbotId={opened.chatbotId} conversationId={opened.conversationId} connection={connection} onBack={closeConversation} onChanged={() => void refresh()} />}
      </Show>
      <Show when={!params.conversationId}>
        <section class="conversation empty-pane">
          <p>Pick a conversation from the list.</p>
        </section>
      </Show>
      <Show when={showHelp()}>
        <Shortcuts onClose={() => setShowHelp(false)} />
      </Show>
    </div>
  )
}
