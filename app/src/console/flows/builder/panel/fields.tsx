import { t } from '../../../../i18n/language.ts'
import { createSignal, For, type JSX, Show } from 'solid-js'
import { isObject, type Json } from '../model/json.ts'
import { issuesAt, type LevelledIssue } from '../model/issues.ts'

/** What every part of the side panel reads and changes: the builder's definition and findings. */
export interface Builder {
  flow(): Json
  /** Sets (or with undefined removes) the value at a JSON pointer; edits with the same `typing` key merge into one undo step. */
  set(pointer: string, value: unknown, typing?: string): void
  apply(next: Json, typing?: string): void
  issues(): LevelledIssue[]
  stateNames(): string[]
  variables(): Record<string, Json>
  /** Names a template may fill: declared variables and contact.KEY. */
  templateNames(): string[]
  mcpIntegrations(): { id: string; name: string }[]
  metaFlows(): { id: string; name: string }[]
}

/** A labelled field with the validator's findings at its pointer shown under it. */
export function Field(props: { label: string; pointer: string; builder: Builder; exact?: boolean; hint?: string; children: JSX.Element }) {
  const found = () => issuesAt(props.builder.issues(), props.pointer, props.exact ?? true)
  return (
    <div class="field" classList={{ invalid: found().some((issue) => issue.level === 'error'), warned: found().some((issue) => issue.level === 'warning') }} data-field={props.pointer}>
      <label>
        <span class="field-label">{props.label}</span>
        {props.children}
      </label>
      <Show when={props.hint}>
        <span class="hint">{props.hint}</span>
      </Show>
      <For each={found()}>
        {(issue) => (
          <p class={`field-issue issue-${issue.level}`} data-field-issue={issue.code}>
            {issue.message}
          </p>
        )}
      </For>
    </div>
  )
}

/** Where a rule at `at` leads: its `to`, picked from the flow's states. */
export function GoTo(props: { at: string; to: unknown; builder: Builder }) {
  return (
    <Field label={t('flowPanel.goTo')} pointer={`${props.at}/to`} builder={props.builder}>
      <StateSelect value={props.to} builder={props.builder} onChange={(to) => props.builder.set(`${props.at}/to`, to)} />
    </Field>
  )
}

/** `list` with `item` added last, but before a trailing catch-all, which would otherwise be taken first. */
export function addedBeforeCatchAll<T>(list: readonly T[], isCatchAll: (item: T) => boolean, item: T): T[] {
  const copy = [...list]
  const last = copy.at(-1)
  copy.splice(last !== undefined && isCatchAll(last) ? copy.length - 1 : copy.length, 0, item)
  return copy
}

export function StateSelect(props: { value: unknown; builder: Builder; onChange: (to: string | undefined) => void; none?: string; label?: string }) {
  const current = () => (typeof props.value === 'string' ? props.value : '')
  return (
    <select aria-label={props.label ?? t('flowPanel.goesTo')} value={current()} onChange={(event) => props.onChange(event.currentTarget.value || undefined)}>
      <option value="">{props.none ?? t('flowPanel.chooseState')}</option>
      <Show when={current() && !props.builder.stateNames().includes(current())}>
        <option value={current()}>{t('flowPanel.noSuchState', { name: current() })}</option>
      </Show>
      <For each={props.builder.stateNames()}>{(name) => <option value={name} selected={name === current()}>{name}</option>}</For>
    </select>
  )
}

/**
 * A text the bot says, where `{{` offers the declared variables and contact details: pick one
 * with a click, or the arrow keys and Enter.
 */
export function TemplateField(props: { value: unknown; builder: Builder; onInput: (text: string) => void; multiline?: boolean; label: string; placeholder?: string }) {
  const [offer, setOffer] = createSignal<{ start: number; names: string[]; at: number } | null>(null)
  let input: HTMLInputElement | HTMLTextAreaElement | undefined
  const text = () => (typeof props.value === 'string' ? props.value : '')
  const look = (element: HTMLInputElement | HTMLTextAreaElement) => {
    const caret = element.selectionStart ?? element.value.length
    const before = element.value.slice(0, caret)
    const open = /\{\{\s*([A-Za-z0-9_.]*)$/.exec(before)
    if (!open) return setOffer(null)
    const typed = (open[1] ?? '').toLowerCase()
    const names = props.builder.templateNames().filter((name) => name.toLowerCase().startsWith(typed))
    setOffer(names.length > 0 ? { start: caret - open[0].length, names, at: 0 } : null)
  }
  const pick = (name: string) => {
    const shown = offer()
    if (!shown || !input) return
    const caret = input.selectionStart ?? input.value.length
    const next = `${input.value.slice(0, shown.start)}{{${name}}}${input.value.slice(caret)}`
    props.onInput(next)
    setOffer(null)
    const place = shown.start + name.length + 4
    queueMicrotask(() => {
      input?.focus()
      input?.setSelectionRange(place, place)
    })
  }
  const keys = (event: KeyboardEvent) => {
    const shown = offer()
    if (!shown) return
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      const step = event.key === 'ArrowDown' ? 1 : -1
      setOffer({ ...shown, at: (shown.at + step + shown.names.length) % shown.names.length })
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault()
      pick(shown.names[shown.at] as string)
    } else if (event.key === 'Escape') setOffer(null)
  }
  const typed = (element: HTMLInputElement | HTMLTextAreaElement) => {
    props.onInput(element.value)
    look(element)
  }
  const closeOffer = () => setTimeout(() => setOffer(null), 150)
  return (
    <span class="template-field">
      <Show
        when={props.multiline}
        fallback={<input ref={(el) => (input = el)} value={text()} aria-label={props.label} placeholder={props.placeholder} onInput={(event) => typed(event.currentTarget)} onKeyDown={keys} onBlur={closeOffer} />}
      >
        <textarea ref={(el) => (input = el)} rows={3} value={text()} aria-label={props.label} placeholder={props.placeholder} onInput={(event) => typed(event.currentTarget)} onKeyDown={keys} onBlur={closeOffer} />
      </Show>
      <Show when={offer()}>
        {(shown) => (
          <ul class="template-offer" role="listbox" aria-label={t('flowPanel.templateOffer')} data-template-offer>
            <For each={shown().names}>
              {(name, index) => (
                <li role="option" aria-selected={index() === shown().at} classList={{ active: index() === shown().at }} onMouseDown={(event) => (event.preventDefault(), pick(name))}>
                  {`{{${name}}}`}
                </li>
              )}
            </For>
          </ul>
        )}
      </Show>
    </span>
  )
}

/** A small list editor's row buttons: up, down, remove. */
const WHAT = {
  message: 'flowPanel.what.message',
  button: 'flowPanel.what.button',
  row: 'flowPanel.what.row',
  transition: 'flowPanel.what.transition',
  condition: 'flowPanel.what.condition',
  exit: 'flowPanel.what.exit',
} as const

export function RowTools(props: { index: number; count: number; move: (from: number, to: number) => void; remove: () => void; what: keyof typeof WHAT }) {
  return (
    <span class="row-tools">
      <button type="button" class="icon" aria-label={t('flowPanel.moveUp', { what: t(WHAT[props.what]) })} disabled={props.index === 0} onClick={() => props.move(props.index, props.index - 1)}>
        ↑
      </button>
      <button type="button" class="icon" aria-label={t('flowPanel.moveDown', { what: t(WHAT[props.what]) })} disabled={props.index === props.count - 1} onClick={() => props.move(props.index, props.index + 1)}>
        ↓
      </button>
      <button type="button" class="icon" aria-label={t('flowPanel.remove', { what: t(WHAT[props.what]) })} onClick={() => props.remove()}>
        ✕
      </button>
    </span>
  )
}

/** A copy of a list with one item moved. */
export function moved<T>(list: T[], from: number, to: number): T[] {
  const copy = [...list]
  const [item] = copy.splice(from, 1)
  copy.splice(to, 0, item as T)
  return copy
}

/** An id for a button or row from its title: lower case, words joined by _. */
export const idFrom = (title: string, taken: string[]) => {
  const base = title.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '').slice(0, 40) || 'choice'
  if (!taken.includes(base)) return base
  for (let n = 2; ; n++) if (!taken.includes(`${base}_${n}`)) return `${base}_${n}`
}

/**
 * A list item read through its accessor on every use: lists of a definition are drawn with
 * <Index> (by position, so an input keeps its focus while its value changes), and the item's
 * fields stay reactive where the form reads them.
 */
export function live<T extends object>(get: () => T): T {
  return new Proxy({} as T, {
    get: (_, key) => (get() as Record<string | symbol, unknown>)[key],
    has: (_, key) => key in get(),
    ownKeys: () => Reflect.ownKeys(get()),
    getOwnPropertyDescriptor: (_, key) => {
      const found = Reflect.getOwnPropertyDescriptor(get(), key)
      return found ? { ...found, configurable: true } : undefined
    },
  })
}

/** The object at `position` of a list, live as `live` makes it; {} while something else stands there. */
export function liveObjectAt(list: () => readonly unknown[], position: number): Json {
  return live(() => {
    const found = list()[position]
    return isObject(found) ? (found as Json) : {}
  })
}

/**
 * The positions of a list's items, for <For>: rows are then kept by position (an input keeps
 * its focus while its value changes), as <Index> would, without Index in the app's first load.
 */
export const positions = (items: readonly unknown[]): number[] => items.map((_, index) => index)
