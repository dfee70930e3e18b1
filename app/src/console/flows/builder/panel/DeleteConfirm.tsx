import { For, onMount, Show } from 'solid-js'
import { incoming } from '../model/edits.ts'
import type { Json } from '../model/json.ts'

/**
 * Asked before states go, however the deletion was asked for (the panel's button, the Delete
 * key, several selected): the ways from other states that lead to them and go with them.
 */
export function DeleteConfirm(props: { flow: Json; names: string[]; onDelete: () => void; onKeep: () => void }) {
  let confirm!: HTMLButtonElement
  const gone = () => new Set(props.names)
  const pointing = () => props.names.flatMap((name) => incoming(props.flow, name).filter((way) => !gone().has(way.from)).map((way) => ({ ...way, to: name })))
  const what = () => (props.names.length === 1 ? props.names[0] : `these ${props.names.length} states`)
  // The confirming button takes the focus: Enter deletes, Escape keeps.
  onMount(() => confirm.focus())
  return (
    <div class="confirm" role="alertdialog" aria-label={`Delete ${what()}?`} data-delete-confirm onKeyDown={(event) => event.key === 'Escape' && (event.stopPropagation(), props.onKeep())}>
      <p>
        Delete <strong>{what()}</strong>?{' '}
        <Show when={pointing().length > 0} fallback="Nothing else leads to it.">
          These lead to it and go with it:
        </Show>
      </p>
      <ul data-pointing>
        <For each={pointing()}>{(way) => <li>{way.way === 'start' ? `the start of the flow (moves to the first state left)` : `${way.from}: ${way.label} → ${way.to}`}</li>}</For>
      </ul>
      <div class="actions">
        <button type="button" class="danger" ref={confirm} onClick={() => props.onDelete()}>
          {props.names.length === 1 ? 'Delete it' : 'Delete them'}
        </button>
        <button type="button" onClick={() => props.onKeep()}>
          Keep {props.names.length === 1 ? 'it' : 'them'}
        </button>
      </div>
    </div>
  )
}
