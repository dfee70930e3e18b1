import { Show } from 'solid-js'

/** A form's refusal, read out by screen readers when it appears; nothing while there is none. */
export function ErrorLine(props: { error: string }) {
  return (
    <Show when={props.error}>
      <p class="form-error" role="alert">
        {props.error}
      </p>
    </Show>
  )
}
