import { createSignal, Show } from 'solid-js'
import { AVATAR_URL_PATTERN } from '../../../server/protocol/widget-config-defaults.ts'
import { initialsOf } from '../initials.ts'

/**
 * An agent's picture beside their name: the image (https only, as the server checked it,
 * fetched without a referrer) or, without one or when it fails to load, their initials.
 * Decorative: the name is written next to it.
 */
export function AgentFace(props: { name: string; src?: string }) {
  const [failed, setFailed] = createSignal(false)
  const usable = () => !failed() && !!props.src && AVATAR_URL_PATTERN.test(props.src)
  return (
    <span class="face" aria-hidden="true">
      <Show when={usable()} fallback={initialsOf(props.name)}>
        <img src={props.src} alt="" referrerpolicy="no-referrer" onError={() => setFailed(true)} />
      </Show>
    </span>
  )
}
