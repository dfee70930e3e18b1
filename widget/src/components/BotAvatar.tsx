import { createSignal, Show } from 'solid-js'
import type { AvatarIcon } from '../../../server/protocol/widget-config-defaults.ts'
import { AvatarIconSvg } from './Icons.tsx'

/**
 * The chatbot's avatar: the configured image, or the built-in icon when there is none or it
 * fails to load (when an image fails with no icon set, the robot stands in). The name is
 * written beside it, so the picture is decorative (empty alt). No referrer: the image's host
 * does not learn which page of the customer's site the visitor is on.
 */
export function BotAvatar(props: { src: string | null; icon: AvatarIcon | null }) {
  const [failed, setFailed] = createSignal(false)
  const icon = () => props.icon || (props.src ? 'robot' : null)
  return (
    <Show
      when={props.src && !failed()}
      fallback={
        <Show when={icon()}>
          {(name) => (
            <span class="avatar">
              <AvatarIconSvg icon={name()} />
            </span>
          )}
        </Show>
      }
    >
      <span class="avatar image">
        <img src={props.src as string} alt="" referrerpolicy="no-referrer" decoding="async" onError={() => setFailed(true)} />
      </span>
    </Show>
  )
}
