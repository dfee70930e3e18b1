import { type JSX, Show } from 'solid-js'
import { Confirm } from './parts.tsx'

/**
 * The confirmation of a row's destructive action, shown while `item` is set (the row's button
 * sets it). Either answer calls `onClose` first, so the dialog is gone before the action runs.
 */
export function ConfirmFor<T extends object>(props: {
  item: T | null
  title: (item: T) => string
  confirm: string
  onClose: () => void
  onConfirm: (item: T) => void
  children: (item: T) => JSX.Element
}) {
  return (
    <Show when={props.item} keyed>
      {(item) => (
        <Confirm
          title={props.title(item)}
          confirm={props.confirm}
          onCancel={() => props.onClose()}
          onConfirm={() => {
            props.onClose()
            props.onConfirm(item)
          }}
        >
          {props.children(item)}
        </Confirm>
      )}
    </Show>
  )
}
