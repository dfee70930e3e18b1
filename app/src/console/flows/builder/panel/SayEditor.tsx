import { t } from '../../../../i18n/language.ts'
import { For, Match, Show, Switch } from 'solid-js'
import { isObject, type Json, objectsIn } from '../model/json.ts'
import { type Builder, Field, idFrom, liveObjectAt, moved, RowTools, TemplateField, positions } from './fields.tsx'

type MessageKind = 'text' | 'buttons' | 'list' | 'media' | 'meta_flow'

const kindOf = (message: Json): MessageKind =>
  'buttons' in message ? 'buttons' : 'sections' in message || 'button' in message ? 'list' : 'media' in message ? 'media' : 'meta_flow' in message ? 'meta_flow' : 'text'

/** A message of a kind, keeping its text when it has one. */
function asKind(message: Json, kind: MessageKind): Json {
  const text = typeof message.text === 'string' ? message.text : t('flowModel.new.message')
  switch (kind) {
    case 'text':
      return { text }
    case 'buttons':
      return { text, buttons: [{ id: 'yes', title: t('flowModel.new.yes') }, { id: 'no', title: t('flowModel.new.no') }] }
    case 'list':
      return { text, button: t('flowModel.new.listButton'), sections: [{ rows: [{ id: 'one', title: t('flowModel.new.one') }] }] }
    case 'media':
      return { media: { type: 'image', url: 'https://' } }
    case 'meta_flow':
      return { meta_flow: { flow_id: '', cta: t('flowModel.new.form') } }
  }
}

/** The messages a state says on entering it, edited as forms: texts, buttons, lists, media and WhatsApp forms. */
export function SayEditor(props: { builder: Builder; base: string; say: unknown }) {
  const messages = () => (Array.isArray(props.say) ? (props.say as unknown[]) : [])
  const setSay = (next: unknown[]) => props.builder.set(`${props.base}/say`, next.length > 0 ? next : undefined)
  return (
    <section class="panel-section" aria-label={t('flowPanel.saysLabel')}>
      <h3>{t('flowPanel.says')}</h3>
      <For each={positions(messages())}>
        {(position) => {
          const raw = () => messages()[position] as unknown
          const index = () => position
          const at = () => `${props.base}/say/${index()}`
          const message = () => (isObject(raw()) ? (raw() as Json) : {})
          return (
            <div class="message-editor" data-message={index()}>
              <div class="row">
                <select aria-label={t('flowPanel.messageKind')} value={kindOf(message())} onChange={(event) => props.builder.set(at(), asKind(message(), event.currentTarget.value as MessageKind))}>
                  <option value="text">{t('flowPanel.kind.text')}</option>
                  <option value="buttons">{t('flowPanel.kind.buttons')}</option>
                  <option value="list">{t('flowPanel.kind.list')}</option>
                  <option value="media">{t('flowPanel.kind.media')}</option>
                  <option value="meta_flow">{t('flowPanel.kind.metaFlow')}</option>
                </select>
                <RowTools what="message" index={index()} count={messages().length} move={(from, to) => setSay(moved(messages(), from, to))} remove={() => setSay(messages().filter((_, i) => i !== index()))} />
              </div>
              <Switch>
                <Match when={kindOf(message()) === 'media'}>
                  <MediaFields builder={props.builder} at={`${at()}/media`} media={message().media} />
                </Match>
                <Match when={kindOf(message()) === 'meta_flow'}>
                  <MetaFlowFields builder={props.builder} at={`${at()}/meta_flow`} value={message().meta_flow} />
                </Match>
                <Match when={true}>
                  <Field label={t('flowPanel.text')} pointer={`${at()}/text`} builder={props.builder}>
                    <TemplateField label={t('flowPanel.text')} multiline value={message().text} builder={props.builder} onInput={(text) => props.builder.set(`${at()}/text`, text, `${at()}/text`)} />
                  </Field>
                </Match>
              </Switch>
              <Show when={kindOf(message()) === 'buttons'}>
                <ChoiceList builder={props.builder} at={`${at()}/buttons`} items={message().buttons} what="button" />
              </Show>
              <Show when={kindOf(message()) === 'list'}>
                <ListFields builder={props.builder} at={at()} message={message()} />
              </Show>
            </div>
          )
        }}
      </For>
      <button type="button" onClick={() => setSay([...messages(), { text: t('flowModel.new.message') }])}>
        {t('flowPanel.addMessage')}
      </button>
    </section>
  )
}

/** Buttons or a section's rows: titles, with ids made from them (a transition names the id). */
function ChoiceList(props: { builder: Builder; at: string; items: unknown; what: 'button' | 'row' }) {
  const items = () => objectsIn(props.items).map(({ value }) => value)
  const setItems = (next: Json[]) => props.builder.set(props.at, next)
  return (
    <div class="choices">
      <For each={positions(items())}>
        {(position) => {
          const item = liveObjectAt(items, position)
          const index = () => position
          return (
          <div class="row choice" data-choice={String(item.id ?? '')}>
            <Field label={props.what === 'button' ? t('flowPanel.buttonN', { n: index() + 1 }) : t('flowPanel.rowN', { n: index() + 1 })} pointer={`${props.at}/${index()}/title`} builder={props.builder}>
              <TemplateField label={props.what === 'button' ? t('flowPanel.buttonTitle') : t('flowPanel.rowTitle')} value={item.title} builder={props.builder} onInput={(text) => props.builder.set(`${props.at}/${index()}/title`, text, `${props.at}/${index()}/title`)} />
            </Field>
            <Field label={t('flowPanel.id')} pointer={`${props.at}/${index()}/id`} builder={props.builder}>
              <input class="id-input" aria-label={props.what === 'button' ? t('flowPanel.buttonId') : t('flowPanel.rowId')} value={String(item.id ?? '')} onChange={(event) => props.builder.set(`${props.at}/${index()}/id`, event.currentTarget.value)} />
            </Field>
            <RowTools what={props.what} index={index()} count={items().length} move={(from, to) => setItems(moved(items(), from, to))} remove={() => setItems(items().filter((_, i) => i !== index()))} />
          </div>
          )
        }}
      </For>
      <button
        type="button"
        onClick={() => {
          const title = t('flowPanel.choiceN', { n: items().length + 1 })
          setItems([...items(), { id: idFrom(title, items().map((i) => String(i.id))), title }])
        }}
      >
        {props.what === 'button' ? t('flowPanel.addButton') : t('flowPanel.addRow')}
      </button>
    </div>
  )
}

function ListFields(props: { builder: Builder; at: string; message: Json }) {
  const sections = () => objectsIn(props.message.sections).map(({ value }) => value)
  return (
    <>
      <Field label={t('flowPanel.listButton')} pointer={`${props.at}/button`} builder={props.builder}>
        <TemplateField label={t('flowPanel.listButtonField')} value={props.message.button} builder={props.builder} onInput={(text) => props.builder.set(`${props.at}/button`, text, `${props.at}/button`)} />
      </Field>
      <For each={positions(sections())}>
        {(position) => {
          const section = liveObjectAt(sections, position)
          const index = () => position
          return (
          <fieldset class="section-editor">
            <legend>{t('flowPanel.sectionN', { n: index() + 1 })}</legend>
            <Field label={t('flowPanel.sectionTitle')} pointer={`${props.at}/sections/${index()}/title`} builder={props.builder}>
              <input value={String(section.title ?? '')} onInput={(event) => props.builder.set(`${props.at}/sections/${index()}/title`, event.currentTarget.value || undefined, `${props.at}/sections/${index()}/title`)} />
            </Field>
            <ChoiceList builder={props.builder} at={`${props.at}/sections/${index()}/rows`} items={section.rows} what="row" />
          </fieldset>
          )
        }}
      </For>
      <button type="button" onClick={() => props.builder.set(`${props.at}/sections`, [...sections(), { rows: [{ id: `row_${sections().length + 1}`, title: t('flowPanel.newRow') }] }])}>
        {t('flowPanel.addSection')}
      </button>
    </>
  )
}

function MediaFields(props: { builder: Builder; at: string; media: unknown }) {
  const media = () => (isObject(props.media) ? props.media : {})
  const text = (key: string, label: string) => (
    <Field label={label} pointer={`${props.at}/${key}`} builder={props.builder}>
      <input value={String(media()[key] ?? '')} onInput={(event) => props.builder.set(`${props.at}/${key}`, event.currentTarget.value || undefined, `${props.at}/${key}`)} />
    </Field>
  )
  return (
    <>
      <Field label={t('flowPanel.mediaType')} pointer={`${props.at}/type`} builder={props.builder}>
        <select value={String(media().type ?? 'image')} onChange={(event) => props.builder.set(`${props.at}/type`, event.currentTarget.value)}>
          <option value="image">{t('flowPanel.media.image')}</option>
          <option value="video">{t('flowPanel.media.video')}</option>
          <option value="audio">{t('flowPanel.media.audio')}</option>
          <option value="file">{t('flowPanel.media.file')}</option>
        </select>
      </Field>
      {text('url', t('flowPanel.mediaUrl'))}
      {text('caption', t('flowPanel.caption'))}
      {text('filename', t('flowPanel.fileName'))}
    </>
  )
}

function MetaFlowFields(props: { builder: Builder; at: string; value: unknown }) {
  const value = () => (isObject(props.value) ? props.value : {})
  return (
    <>
      <Field label={t('flowPanel.metaFlow')} pointer={`${props.at}/flow_id`} builder={props.builder}>
        <select value={String(value().flow_id ?? '')} onChange={(event) => props.builder.set(`${props.at}/flow_id`, event.currentTarget.value)}>
          <option value="">{t('flowPanel.chooseForm')}</option>
          <For each={props.builder.metaFlows()}>{(flow) => <option value={flow.id} selected={flow.id === value().flow_id}>{flow.name}</option>}</For>
        </select>
      </Field>
      <Field label={t('flowPanel.cta')} pointer={`${props.at}/cta`} builder={props.builder}>
        <input value={String(value().cta ?? '')} onInput={(event) => props.builder.set(`${props.at}/cta`, event.currentTarget.value, `${props.at}/cta`)} />
      </Field>
    </>
  )
}
