import { For, Match, Switch } from 'solid-js'
import { safeMediaUrl, splitLinks } from '../../../widget/src/links.ts'
import type { ChatMessage, Content, ConversationRating, DeskEvent, Note } from '../types.ts'
import { clock, ratingLabel } from './format.ts'
import { t } from '../i18n/language.ts'

type Of<K extends Content['kind']> = Extract<Content, { kind: K }>


/**
 * One message as the visitor saw it. Every piece of text becomes a text node (Solid never
 * parses it as HTML); links are <a> only for http, https and mailto.
 */
export function MessageView(props: { message: ChatMessage; visitorName: string }) {
  const who = () => (props.message.role === 'agent' ? (props.message.author ?? t('desk.sender.agent')) : props.message.role === 'visitor' ? props.visitorName : t(`desk.sender.${props.message.role}`))
  return (
    <li class={`message ${props.message.role}`} data-message={props.message.id}>
      <div class="message-head">
        <span class="author">{who()}</span>
        <time datetime={props.message.created_at}>{clock(props.message.created_at)}</time>
      </div>
      <div class="bubble">
        <ContentView content={props.message.content} />
      </div>
    </li>
  )
}

/** A private note: only people on the desk ever see it. */
export function NoteView(props: { note: Note }) {
  return (
    <li class="message note" data-note={props.note.id}>
      <div class="message-head">
        <span class="author">{props.note.author?.display_name ?? t('desk.note')}</span>
        <span class="private">{t('desk.privateNote')}</span>
        <time datetime={props.note.created_at}>{clock(props.note.created_at)}</time>
      </div>
      <div class="bubble">
        <Text text={props.note.text} />
      </div>
    </li>
  )
}

/** What happened to the conversation: handed off at a state, taken over by someone, closed. */
export function EventView(props: { event: DeskEvent }) {
  return (
    <li
      class={`message event${props.event.kind === 'agent_failed' ? ' failed' : ''}${props.event.kind === 'rated' ? ' rated' : ''}`}
      data-event={props.event.id}
      data-event-kind={props.event.kind}
    >
      <span>{describeEvent(props.event)}</span> <time datetime={props.event.at}>{clock(props.event.at)}</time>
    </li>
  )
}

export function describeEvent(event: DeskEvent): string {
  const name = event.actor?.display_name
  const data = event.data as { state?: unknown; from?: unknown; assignee?: { display_name?: string } | null }
  const state = typeof data.state === 'string' ? data.state : null
  switch (event.kind) {
    case 'handed_off':
      return name ? t('desk.event.takenOver', { name }) : state ? t('desk.event.handedOffAt', { state }) : t('desk.event.handedOff')
    case 'handed_back':
      return name ? t('desk.event.handedBackBy', { name }) : t('desk.event.handedBack')
    case 'closed':
      return name ? t('desk.event.closedBy', { name }) : t('desk.event.closed')
    case 'assigned': {
      const assignee = data.assignee?.display_name ?? t('desk.event.someone')
      return name ? t('desk.event.assignedBy', { assignee, name }) : t('desk.event.assigned', { assignee })
    }
    case 'unassigned':
      return name ? t('desk.event.unassignedBy', { name }) : t('desk.event.unassigned')
    case 'rated': {
      const rating = event.data as unknown as ConversationRating
      return rating.comment ? t('desk.event.ratedWith', { rating: ratingLabel(rating), comment: rating.comment }) : t('desk.event.rated', { rating: ratingLabel(rating) })
    }
    case 'agent_failed': {
      const reason = (event.data as { failure?: { message?: string } }).failure?.message ?? t('desk.event.unusable')
      return state ? t('desk.event.modelFailedAt', { state, reason }) : t('desk.event.modelFailed', { reason })
    }
  }
}

function ContentView(props: { content: Content }) {
  return (
    <Switch>
      <Match when={props.content.kind === 'text' && (props.content as Of<'text'>)}>{(content) => <Text text={content().text} />}</Match>
      <Match when={props.content.kind === 'buttons' && (props.content as Of<'buttons'>)}>
        {(content) => (
          <>
            <Text text={content().text} />
            <div class="choices">
              <For each={content().buttons}>{(button) => <span class="choice">{button.title}</span>}</For>
            </div>
          </>
        )}
      </Match>
      <Match when={props.content.kind === 'list' && (props.content as Of<'list'>)}>
        {(content) => (
          <>
            <Text text={content().text} />
            <details class="list-content">
              <summary>{content().button}</summary>
              <For each={content().sections}>
                {(section) => (
                  <div class="section">
                    {section.title ? <strong>{section.title}</strong> : null}
                    <ul>
                      <For each={section.rows}>
                        {(row) => (
                          <li>
                            {row.title}
                            {row.description ? <span class="muted"> — {row.description}</span> : null}
                          </li>
                        )}
                      </For>
                    </ul>
                  </div>
                )}
              </For>
            </details>
          </>
        )}
      </Match>
      <Match when={props.content.kind === 'media' && (props.content as Of<'media'>)}>{(content) => <Media media={content().media} />}</Match>
      <Match when={props.content.kind === 'reply' && (props.content as Of<'reply'>)}>
        {(content) => (
          <p class="text">
            <span class="picked">{t('desk.picked')}</span> {content().title}
          </p>
        )}
      </Match>
      <Match when={props.content.kind === 'meta_flow' && (props.content as Of<'meta_flow'>)}>
        {(content) => (
          <p class="text">
            {content().cta} <span class="muted">{t('desk.metaForm')}</span>
          </p>
        )}
      </Match>
    </Switch>
  )
}

function Text(props: { text: string }) {
  return (
    <p class="text">
      <For each={splitLinks(props.text)}>
        {(piece) =>
          piece.href ? (
            <a href={piece.href} target="_blank" rel="noopener noreferrer nofollow">
              {piece.text}
            </a>
          ) : (
            piece.text
          )
        }
      </For>
    </p>
  )
}

function Media(props: { media: Of<'media'>['media'] }) {
  const url = () => safeMediaUrl(props.media.url)
  return (
    <figure class="media">
      <Switch fallback={<span class="muted">{t('desk.unsafeMedia', { type: props.media.type })}</span>}>
        <Match when={url() && props.media.type === 'image'}>
          <img src={url()} alt={props.media.caption ?? t('desk.image')} loading="lazy" referrerpolicy="no-referrer" />
        </Match>
        <Match when={url() && props.media.type === 'video'}>
          <video src={url()} controls preload="none" />
        </Match>
        <Match when={url() && props.media.type === 'audio'}>
          <audio src={url()} controls preload="none" />
        </Match>
        <Match when={url()}>
          <a href={url()} target="_blank" rel="noopener noreferrer nofollow">
            {props.media.filename ?? t('desk.file')}
          </a>
        </Match>
      </Switch>
      {props.media.caption ? <figcaption>{props.media.caption}</figcaption> : null}
    </figure>
  )
}
