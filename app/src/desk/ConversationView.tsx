import { createResource, createSignal, For, Match, onCleanup, onMount, Show, Switch } from 'solid-js'
import { ApiError } from '../api.ts'
import { me } from '../session.ts'
import type { ChatMessage, DeskConversation, Label, Person, TimelineItem, User } from '../types.ts'
import { ConversationLabels } from './Labels.tsx'
import { Composer, type SendResult } from './Composer.tsx'
import { ContextPanel } from './ContextPanel.tsx'
import * as data from './data.ts'
import { channelName, contactName, ratingClass, ratingLabel } from './format.ts'
import type { Live } from './live.ts'
import { EventView, MessageView, NoteView } from './MessageView.tsx'
import { mergeTimeline, newestMessageId } from './timeline.ts'
import { pinToBottom } from '../../../widget/src/pin-to-bottom.ts'
import { quietLog } from '../../../widget/src/quiet-log.ts'
import { listOf, t } from '../i18n/language.ts'


/**
 * One conversation: the whole history as the visitor saw it, with events and private notes;
 * who else is looking; the actions; the reply box; and its context.
 */
export function ConversationView(props: { conversationId: string; connection: Live; team: User[]; labels: Label[]; onLabelCreated: () => void; onBack: () => void; onChanged: () => void }) {
  const id = props.conversationId
  const [row, { mutate: setRow, refetch: refetchRow }] = createResource(() => data.conversation(id))
  const [items, setItems] = createSignal<TimelineItem[]>([])
  const [hasMore, setHasMore] = createSignal(false)
  const [error, setError] = createSignal('')
  const [visitorTyping, setVisitorTyping] = createSignal(false)
  const [othersTyping, setOthersTyping] = createSignal<Person[]>([])
  const [viewers, setViewers] = createSignal<Person[]>([])
  const [showContext, setShowContext] = createSignal(false)
  const [contextVersion, setContextVersion] = createSignal(0)
  let log: HTMLOListElement | undefined
  const myId = () => me()?.user.id

  // The history follows its newest line while the person is there (a picture that loads later
  // included); scrolled up, it stays put and a pill says something new came (the widget's own rule).
  const [newBelow, setNewBelow] = createSignal(false)
  let pin: ReturnType<typeof pinToBottom> | undefined
  onMount(() => (pin = log && pinToBottom(log, setNewBelow)))
  onCleanup(() => pin?.stop())
  const scrollDown = () => pin?.toBottom()

  let readUpTo: string | null = null
  const markRead = () => {
    const newest = newestMessageId(items())
    if (!newest || newest === readUpTo || document.visibilityState === 'hidden') return
    readUpTo = newest
    void data.markRead(id, newest).then(props.onChanged, () => {})
  }
  const add = (added: TimelineItem[]) => {
    setItems(mergeTimeline(items(), added))
    markRead()
  }
  const load = async () => {
    try {
      const page = await data.timeline(id)
      if (log) quietLog(log)
      setItems(mergeTimeline(page.items, items()))
      setHasMore(page.has_more)
      markRead()
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : t('desk.conversationFailed'))
    }
  }
  const loadOlder = async () => {
    const oldest = items().find((item) => item.type === 'message')
    if (!oldest || oldest.type !== 'message') return
    const page = await data.timeline(id, oldest.message.id)
    if (log) quietLog(log)
    setItems(mergeTimeline(page.items, items()))
    setHasMore(page.has_more)
  }
  void load()
  let reloading: ReturnType<typeof setTimeout> | undefined
  const reloadSoon = () => {
    clearTimeout(reloading)
    reloading = setTimeout(() => void load(), 150)
  }
  onCleanup(() => clearTimeout(reloading))

  const seeVisible = () => markRead()
  document.addEventListener('visibilitychange', seeVisible)
  onCleanup(() => document.removeEventListener('visibilitychange', seeVisible))
  onCleanup(
    props.connection.listen((event) => {
      if (event.type === 'reload') {
        void load()
  let reloading: ReturnType<typeof setTimeout> | undefined
  const reloadSoon = () => {
    clearTimeout(reloading)
    reloading = setTimeout(() => void load(), 150)
  }
  onCleanup(() => clearTimeout(reloading))
        void refetchRow()
        setContextVersion((version) => version + 1)
        return
      }
      if (event.conversation_id !== id) return
      switch (event.type) {
        case 'message':
          add([{ type: 'message', at: event.message.created_at, message: event.message }])
          if (event.message.role === 'visitor') setVisitorTyping(false)
          break
        case 'note':
          add([{ type: 'note', at: event.note.created_at, note: event.note }])
          break
        case 'timeline':
          add([{ type: 'event', at: event.event.at, event: event.event }])
          // One action can record several events (taking over also assigns) and the feed may
          // carry only the last; the timeline fetched again has them all (merged, no doubles).
          reloadSoon()
          void refetchRow()
          setContextVersion((version) => version + 1)
          break
        case 'conversation':
          void refetchRow()
          break
        case 'typing':
          if (event.from === 'visitor') setVisitorTyping(event.active)
          else if (event.from === 'agent' && event.person && event.person.id !== myId()) {
            const others = othersTyping().filter((person) => person.id !== event.person!.id)
            setOthersTyping(event.active ? [...others, event.person] : others)
          }
          break
        case 'presence':
          setViewers(event.people.filter((person) => person.id !== myId()))
          break
      }
    }),
  )

  /** The panel narrows the history: a reader at the newest message stays there (the pin sees the resize). */
  const toggleContext = () => setShowContext((shown) => !shown)
  const act = async (change: () => Promise<DeskConversation>) => {
    setError('')
    try {
      setRow(await change())
      props.onChanged()
      setContextVersion((version) => version + 1)
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.detail : t('desk.changeFailed'))
    }
  }
  /** The person's own message (a reply or a file) joins the timeline at once; the row and the list catch up. */
  const showSent = (message: ChatMessage) => {
    add([{ type: 'message', at: message.created_at, message }])
    scrollDown()
    void refetchRow()
    props.onChanged()
  }
  const send = async (text: string, mode: 'reply' | 'note', force: boolean): Promise<SendResult> => {
    if (mode === 'note') {
      const note = await data.addNote(id, text)
      add([{ type: 'note', at: note.created_at, note }])
      scrollDown()
      return 'sent'
    }
    try {
      showSent(await data.reply(id, text, newestMessageId(items()), force))
      return 'sent'
    } catch (failure) {
      if (failure instanceof ApiError && failure.status === 409 && failure.code === 'stale_view') {
        // Show what arrived meanwhile, then let the person decide.
        await load()
        return 'stale'
      }
      throw failure
    }
  }

  const attach = async (file: File, onProgress: (fraction: number) => void) => showSent(await data.attach(id, file, onProgress))

  return (
    <section class="conversation" aria-label={t('desk.conversation')} classList={{ 'context-open': showContext() }}>
      <header class="conversation-head">
        <button type="button" class="back link" onClick={() => props.onBack()} aria-label={t('desk.back')}>
          ←
        </button>
        <div class="title">
          <h2>{row() ? contactName(row()!.contact) : '…'}</h2>
          <Show when={row()}>
            {(current) => (
              <span class="muted">
                {current().chatbot_name} · {channelName(current().channel)} ·{' '}
                <span class={`status status-${current().status}`}>{t(`desk.status.${current().status}`)}</span>
                <Show when={current().waiting_seconds !== null}>
                  {' '}
                  · <span class="wait">{t('desk.waitingForReply')}</span>
                </Show>
                <Show when={current().rating}>
                  {(rating) => (
                    <>
                      {' '}
                      · <span class={`rating-badge rating-${ratingClass(rating())}`} data-rating title={rating().comment ?? t('desk.ratedByVisitor')}>
                        {t('desk.ratedAs', { rating: ratingLabel(rating()) })}
                      </span>
                    </>
                  )}
                </Show>
              </span>
            )}
          </Show>
          <Show when={row()}>
            {(current) => (
              <ConversationLabels
                conversationId={id}
                carried={current().labels ?? []}
                all={props.labels}
                canCreate={me()?.user.role === 'admin'}
                onChanged={(labels) => {
                  setRow({ ...current(), labels })
                  props.onChanged()
                }}
                onCreated={props.onLabelCreated}
              />
            )}
          </Show>
          <Show when={viewers().length > 0}>
            <span class="presence" data-presence>
              {t('desk.alsoHere', { names: listOf(viewers().map((person) => person.display_name)) })}
            </span>
          </Show>
        </div>
        <div class="actions">
          <label class="assign">
            <span class="visually-hidden">{t('desk.assignedTo')}</span>
            <select
              aria-label={t('desk.assignedTo')}
              value={row()?.assignee?.id ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value
                void act(() => data.assign(id, value || null))
              }}
            >
              <option value="">{t('desk.unassigned')}</option>
              <For each={props.team.filter((person) => person.status === 'active')}>
                {(person) => <option value={person.id}>{person.id === myId() ? t('desk.me', { name: person.display_name }) : person.display_name}</option>}
              </For>
            </select>
          </label>
          <Switch>
            <Match when={row()?.status === 'handoff'}>
              <button type="button" data-action="hand-back" onClick={() => void act(() => data.setStatus(id, 'bot'))}>
                {t('desk.handBack')}
              </button>
            </Match>
            <Match when={row()}>
              <button type="button" data-action="take-over" onClick={() => void act(() => data.setStatus(id, 'handoff'))}>
                {t('desk.takeOver')}
              </button>
            </Match>
          </Switch>
          <Show when={row() && row()!.status !== 'closed'}>
            <button type="button" data-action="close" onClick={() => void act(() => data.setStatus(id, 'closed'))}>
              {t('desk.close')}
            </button>
          </Show>
          <button type="button" class="context-toggle" aria-pressed={showContext()} onClick={toggleContext}>
            {t('desk.context')}
          </button>
        </div>
      </header>
      <Show when={error()}>
        <p class="form-error" role="alert">
          {error()}
        </p>
      </Show>
      <ol class="messages" ref={log} aria-live="polite" aria-relevant="additions" aria-label={t('desk.messages')} tabindex="0">
        <Show when={hasMore()}>
          <li class="older">
            <button type="button" class="link" onClick={() => void loadOlder()}>
              {t('desk.earlierMessages')}
            </button>
          </li>
        </Show>
        <For each={items()}>
          {(item) => (
            <Switch>
              <Match when={item.type === 'message' && item}>
                {(shown) => <MessageView message={shown().message} visitorName={row() ? contactName(row()!.contact) : t('desk.sender.visitor')} />}
              </Match>
              <Match when={item.type === 'note' && item}>{(shown) => <NoteView note={shown().note} />}</Match>
              <Match when={item.type === 'event' && item}>{(shown) => <EventView event={shown().event} />}</Match>
            </Switch>
          )}
        </For>
      </ol>
      <Show when={newBelow()}>
        <button type="button" class="new-below" onClick={scrollDown}>
          {t('desk.newBelow')}
        </button>
      </Show>
      <p class="typing" aria-live="polite">
        {visitorTyping() ? t('desk.visitorTyping') : othersTyping().length > 0 ? t('desk.othersTyping', { count: othersTyping().length, names: listOf(othersTyping().map((person) => person.display_name)) }) : ''}
      </p>
      <Composer
        closed={row()?.status === 'closed'}
        onSend={send}
        onAttach={attach}
        onTyping={(active) => props.connection.typing(id, active)}
      />
      <Show when={showContext()}>
        <ContextPanel conversationId={id} version={contextVersion()} onClose={() => setShowContext(false)} />
      </Show>
    </section>
  )
}

