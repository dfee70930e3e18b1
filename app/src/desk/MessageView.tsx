import { For, Match, Switch } from 'solid-js'
import { safeMediaUrl, splitLinks } from '../../../widget/src/links.ts'
import type { ChatMessage, Content, ConversationRating, DeskEvent, Note } from '../types.ts'
import { clock, ratingLabel } from './format.ts'

type Of<K extends Content['kind']> = Extract<Content, { kind: K }>

const ROLE_NAMES: Record<ChatMessage['role'], string> = { visitor: 'Visitor', bot: 'Bot', agent: 'Agent', system: 'System' }

/**
 * One message as the visitor saw it. Every piece of text becomes a text node (Solid never
 * parses it as HTML); links are <a> only for http, https and mailto.
 */
export function MessageView(props: { message: ChatMessage; visitorName: string }) {
  const who = () => (props.message.role === 'agent' ? (props.message.author ?? 'Agent') : props.message.role === 'visitor' ? props.visitorName : ROLE_NAMES[props.message.role])
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
        <span class="author">{props.note.author?.display_name ?? 'Note'}</span>
        <span class="private">private note</span>
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
  const by = event.actor ? ` by ${event.actor.display_name}` : ''
  const data = event.data as { state?: unknown; from?: unknown; assignee?: { display_name?: string } | null }
  switch (event.kind) {
    case 'handed_off':
      return event.actor ? `Taken over${by}` : `Handed off to a person${typeof data.state === 'string' ? ` at state “${data.state}”` : ''}`
    case 'handed_back':
      return `Handed back to the bot${by}`
    case 'closed':
      return `Closed${by}`
    case 'assigned':
      return `Assigned to ${data.assignee?.display_name ?? 'someone'}${by}`
    case 'unassigned':
      return `Unassigned${by}`
    case 'rated': {
      const rating = event.data as unknown as ConversationRating
      return `The visitor rated it ${ratingLabel(rating)}${rating.comment ? `: “${rating.comment}”` : ''}`
    }
    case 'agent_failed': {
      const failure = (event.data as { failure?: { message?: string } }).failure
      return `The bot's model failed${typeof data.state === 'string' ? ` at state “${data.state}”` : ''}: ${failure?.message ?? 'it could not be used'}`
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
            <span class="picked">picked</span> {content().title}
          </p>
        )}
      </Match>
      <Match when={props.content.kind === 'meta_flow' && (props.content as Of<'meta_flow'>)}>
        {(content) => (
          <p class="text">
            {content().cta} <span class="muted">(a form in the messaging app)</span>
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
      <Switch fallback={<span class="muted">[{props.media.type}: unsafe address not shown]</span>}>
        <Match when={url() && props.media.type === 'image'}>
          <img src={url()} alt={props.media.caption ?? 'image'} loading="lazy" referrerpolicy="no-referrer" />
        </Match>
        <Match when={url() && props.media.type === 'video'}>
          <video src={url()} controls preload="none" />
        </Match>
        <Match when={url() && props.media.type === 'audio'}>
          <audio src={url()} controls preload="none" />
        </Match>
        <Match when={url()}>
          <a href={url()} target="_blank" rel="noopener noreferrer nofollow">
            {props.media.filename ?? 'file'}
          </a>
        </Match>
      </Switch>
      {props.media.caption ? <figcaption>{props.media.caption}</figcaption> : null}
    </figure>
  )
}
