import { createSignal, For, Show } from 'solid-js'
import { ApiError } from '../api.ts'
import { t } from '../i18n/language.ts'
import { LABEL_COLORS, type Label, type LabelColor, type LabelRef } from '../types.ts'
import * as data from './data.ts'

/** A label as a chip in its colour (a class of the palette: nothing the server sends reaches a style). */
export function LabelChip(props: { label: LabelRef; onRemove?: () => void }) {
  return (
    <span class={`label-chip label-${props.label.color}`} data-label={props.label.name}>
      {props.label.name}
      <Show when={props.onRemove}>
        {(remove) => (
          <button type="button" class="label-remove" aria-label={t('desk.labels.remove', { name: props.label.name })} title={t('desk.labels.remove', { name: props.label.name })} onClick={() => remove()()}>
            ×
          </button>
        )}
      </Show>
    </span>
  )
}

/** The chips of a list row. */
export function RowLabels(props: { labels: LabelRef[] }) {
  return (
    <Show when={props.labels.length > 0}>
      <span class="row-labels" aria-label={t('desk.labels.title')}>
        <For each={props.labels}>{(label) => <LabelChip label={label} />}</For>
      </span>
    </Show>
  )
}

/**
 * The open conversation's labels: each with its ×, a menu of the workspace's other labels to
 * add, and for an admin a small form for a new one (made and set at once).
 */
export function ConversationLabels(props: {
  conversationId: string
  carried: LabelRef[]
  all: Label[]
  canCreate: boolean
  onChanged: (labels: LabelRef[]) => void
  onCreated: () => void
}) {
  const [error, setError] = createSignal('')
  const [creating, setCreating] = createSignal(false)
  const [name, setName] = createSignal('')
  const [color, setColor] = createSignal<LabelColor>('blue')
  const others = () => props.all.filter((label) => !props.carried.some((carried) => carried.id === label.id))
  const change = async (labelId: string, on: boolean) => {
    try {
      setError('')
      props.onChanged(await data.setLabel(props.conversationId, labelId, on))
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure))
    }
  }
  const create = async (event: Event) => {
    event.preventDefault()
    try {
      setError('')
      const made = await data.createLabel(name().trim(), color())
      props.onCreated()
      setName('')
      setCreating(false)
      await change(made.id, true)
    } catch (failure) {
      setError(failure instanceof ApiError && failure.code === 'label_taken' ? t('desk.labels.taken') : failure instanceof Error ? failure.message : String(failure))
    }
  }
  return (
    <div class="conversation-labels" role="group" aria-label={t('desk.labels.title')}>
      <For each={props.carried}>{(label) => <LabelChip label={label} onRemove={() => void change(label.id, false)} />}</For>
      <Show when={others().length > 0}>
        <select
          class="label-add"
          aria-label={t('desk.labels.add')}
          value=""
          onChange={(event) => {
            const value = event.currentTarget.value
            event.currentTarget.value = ''
            if (value) void change(value, true)
          }}
        >
          <option value="">{t('desk.labels.addOption')}</option>
          <For each={others()}>{(label) => <option value={label.id}>{label.name}</option>}</For>
        </select>
      </Show>
      <Show when={props.canCreate && !creating()}>
        <button type="button" class="link" data-action="new-label" onClick={() => setCreating(true)}>
          {t('desk.labels.new')}
        </button>
      </Show>
      <Show when={creating()}>
        <form class="label-new" onSubmit={(event) => void create(event)}>
          <input aria-label={t('desk.labels.name')} placeholder={t('desk.labels.name')} maxLength={40} required value={name()} onInput={(event) => setName(event.currentTarget.value)} />
          <select aria-label={t('desk.labels.color')} value={color()} onChange={(event) => setColor(event.currentTarget.value as LabelColor)}>
            <For each={LABEL_COLORS}>{(id) => <option value={id}>{t(`desk.labels.color.${id}`)}</option>}</For>
          </select>
          <button type="submit">{t('desk.labels.create')}</button>
          <button type="button" class="link" onClick={() => setCreating(false)}>
            {t('desk.labels.cancel')}
          </button>
        </form>
      </Show>
      <Show when={error()}>
        <span class="form-error" role="alert">
          {error()}
        </span>
      </Show>
    </div>
  )
}
