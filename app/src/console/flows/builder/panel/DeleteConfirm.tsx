import { rich, t } from '../../../../i18n/language.ts'
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
  const what = () => (props.names.length === 1 ? (props.names[0] as string) : t('flowPanel.theseStates', { count: props.names.length }))
  // The confirming button takes the focus: Enter deletes, Escape keeps.
  onMount(() => confirm.focus())
  return (
    <div class="confirm" role="alertdialog" aria-label={t('flowPanel.deleteWhat', { what: what() })} data-delete-confirm onKeyDown={(event) => event.key === 'Escape' && (event.stopPropagation(), props.onKeep())}>
      <p>
        {rich('flowPanel.deleteWhat', { what: <strong>{what()}</strong> })}{' '}
        <Show when={pointing().length > 0} fallback={t('flowPanel.nothingLeads')}>
          {t('flowPanel.theseLead')}
        </Show>
      </p>
      <ul data-pointing>
        <For each={pointing()}>{(way) => <li>{way.way === 'start' ? t('flowPanel.startMoves') : `${way.from}: ${way.label} → ${way.to}`}</li>}</For>
      </ul>
      <div class="actions">
        <button type="button" class="danger" ref={confirm} onClick={() => props.onDelete()}>
          {props.names.length === 1 ? t('flowPanel.deleteIt') : t('flowPanel.deleteThem')}
        </button>
        <button type="button" onClick={() => props.onKeep()}>
          {props.names.length === 1 ? t('flowPanel.keepIt') : t('flowPanel.keepThem')}
        </button>
      </div>
    </div>
  )
}
