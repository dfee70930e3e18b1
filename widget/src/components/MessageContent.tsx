import { createSignal, For, Match, Show, Switch } from 'solid-js'
import type { Content } from '../../../server/protocol/widget-protocol.ts'
import { safeMediaUrl } from '../links.ts'
import { revealInLog } from '../reveal-in-log.ts'
import { UNPIN } from '../pin-to-bottom.ts'
import type { Speech } from '../speech.ts'
import { FileIcon } from './Icons.tsx'
import { LinkedText } from './LinkedText.tsx'

type Of<K extends Content['kind']> = Extract<Content, { kind: K }>

export interface ReplyHandler {
  (reply_to: 'button' | 'row', id: string, title: string): void
}

/** What one bubble shows, by content kind. Buttons and list rows answer only while `active`. */
export function MessageContent(props: { content: Content; active: boolean; onReply: ReplyHandler; speech: Speech }) {
  return (
    <Switch>
      <Match when={props.content.kind === 'text' && (props.content as Of<'text'>)}>
        {(content) => (
          <p class="text" dir="auto">
            <LinkedText text={content().text} />
          </p>
        )}
      </Match>
      <Match when={props.content.kind === 'buttons' && (props.content as Of<'buttons'>)}>
        {(content) => (
          <>
            <p class="text" dir="auto">
              <LinkedText text={content().text} />
            </p>
            <div class="choices" role="group" aria-label={props.speech.t.choose_answer}>
              <For each={content().buttons}>
                {(button) => (
                  <button type="button" class="choice" disabled={!props.active} onClick={() => props.onReply('button', button.id, button.title)}>
                    {button.title}
                  </button>
                )}
              </For>
            </div>
          </>
        )}
      </Match>
      <Match when={props.content.kind === 'list' && (props.content as Of<'list'>)}>
        {(content) => <ListContent content={content()} active={props.active} onReply={props.onReply} />}
      </Match>
      <Match when={props.content.kind === 'media' && (props.content as Of<'media'>)}>
        {(content) => <MediaContent media={content().media} speech={props.speech} />}
      </Match>
      <Match when={props.content.kind === 'reply' && (props.content as Of<'reply'>)}>
        {(content) => <p class="text" dir="auto">{content().title}</p>}
      </Match>
      <Match when={props.content.kind === 'meta_flow' && (props.content as Of<'meta_flow'>)}>
        {(content) => (
          <p class="text notice-text">
            {content().cta} <span class="muted">{props.speech.t.form_in_app}</span>
          </p>
        )}
      </Match>
    </Switch>
  )
}

function ListContent(props: { content: Of<'list'>; active: boolean; onReply: ReplyHandler }) {
  const [expanded, setExpanded] = createSignal(false)
  let toggle: HTMLButtonElement | undefined
  let rows: HTMLDivElement | undefined
  const flip = () => {
    // The visitor reads here now: the log stops following its bottom (pin-to-bottom.ts).
    if (!expanded()) toggle?.dispatchEvent(new Event(UNPIN, { bubbles: true }))
    setExpanded(!expanded())
    // The rows open below the fold of the log: bring them up, keeping the button in view.
    if (expanded()) requestAnimationFrame(() => toggle && rows && revealInLog(toggle, rows))
  }
  return (
    <>
      <p class="text" dir="auto">
        <LinkedText text={props.content.text} />
      </p>
      <button type="button" class="choice" aria-expanded={expanded()} disabled={!props.active} onClick={flip} ref={toggle}>
        {props.content.button}
      </button>
      <Show when={expanded() && props.active}>
        <div class="rows" ref={rows}>
          <For each={props.content.sections}>
            {(section) => (
              <div class="section" role="group" aria-label={section.title || props.content.button}>
                <Show when={section.title}>
                  <p class="section-title">{section.title}</p>
                </Show>
                <For each={section.rows}>
                  {(row) => (
                    <button type="button" class="row" onClick={() => props.onReply('row', row.id, row.title)}>
                      <span class="row-title">{row.title}</span>
                      <Show when={row.description}>
                        <span class="row-description">{row.description}</span>
                      </Show>
                    </button>
                  )}
                </For>
              </div>
            )}
          </For>
        </div>
      </Show>
    </>
  )
}

function MediaContent(props: { media: Of<'media'>['media']; speech: Speech }) {
  const url = () => safeMediaUrl(props.media.url)
  const label = () => props.media.caption || props.media.filename || props.speech.t[props.media.type]
  return (
    <>
      <Show when={url()} fallback={<p class="text muted">{props.speech.t.attachment_unshown}</p>}>
        {(href) => (
          <Switch>
            <Match when={props.media.type === 'image'}>
              <a href={href()} target="_blank" rel="noopener noreferrer">
                <img class="media" src={href()} alt={label()} loading="lazy" referrerPolicy="no-referrer" />
              </a>
            </Match>
            <Match when={props.media.type === 'video'}>
              <video class="media" src={href()} controls preload="metadata" aria-label={label()} />
            </Match>
            <Match when={props.media.type === 'audio'}>
              <audio class="media" src={href()} controls preload="metadata" aria-label={label()} />
            </Match>
            <Match when={props.media.type === 'file'}>
              <a class="file" href={href()} target="_blank" rel="noopener noreferrer" download={props.media.filename ?? ''}>
                <FileIcon />
                <span class="file-name">{props.media.filename || props.speech.t.download_file}</span>
              </a>
            </Match>
          </Switch>
        )}
      </Show>
      <Show when={props.media.caption}>
        <p class="text caption" dir="auto">
          <LinkedText text={props.media.caption ?? ''} />
        </p>
      </Show>
    </>
  )
}
