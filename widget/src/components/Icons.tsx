import type { JSX } from 'solid-js'
import type { AvatarIcon } from '../../../server/protocol/widget-config-defaults.ts'

/** Line icons on a 24×24 grid, drawn with currentColor so they follow the theme. */
const AVATAR_PATHS: Record<Exclude<AvatarIcon, ''>, () => JSX.Element> = {
  robot: () => (
    <>
      <rect x="4" y="8" width="16" height="12" rx="3" />
      <path d="M12 8V5M9 14h.01M15 14h.01M10 17h4" />
      <circle cx="12" cy="4" r="1" />
    </>
  ),
  headset: () => <path d="M4 15v-3a8 8 0 0 1 16 0v3M4 15h3v5H5a1 1 0 0 1-1-1zM20 15h-3v5h2a1 1 0 0 0 1-1zM20 19a3 3 0 0 1-3 3h-3" />,
  sparkle: () => <path d="M12 3l1.9 5.1L19 10l-5.1 1.9L12 17l-1.9-5.1L5 10l5.1-1.9zM19 15v5M16.5 17.5h5" />,
  heart: () => <path d="M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.2a4.3 4.3 0 0 1 7.5 2.6C19.5 15.4 12 20 12 20z" />,
  store: () => <path d="M4 9l1.5-5h13L20 9M4 9h16v1.5a2.7 2.7 0 0 1-5.3.5 2.7 2.7 0 0 1-5.4 0 2.7 2.7 0 0 1-5.3-.5zM5 12.5V20h14v-7.5M10 20v-4h4v4" />,
  graduation: () => <path d="M2 9l10-5 10 5-10 5zM6 11v5c2.5 2.5 9.5 2.5 12 0v-5M22 9v6" />,
  chat: () => <path d="M4 5h16v11H9l-5 4z" />,
}

function Svg(props: { children: JSX.Element; size?: number }) {
  return (
    <svg
      width={props.size ?? 20}
      height={props.size ?? 20}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
    >
      {props.children}
    </svg>
  )
}

export function AvatarIconSvg(props: { icon: Exclude<AvatarIcon, ''> }) {
  return <Svg>{AVATAR_PATHS[props.icon]()}</Svg>
}

export const ChatIcon = () => <Svg size={22}>{AVATAR_PATHS.chat()}</Svg>
export const CloseIcon = () => (
  <Svg>
    <path d="M6 6l12 12M18 6L6 18" />
  </Svg>
)
export const SendIcon = () => (
  <Svg>
    <path d="M4 12l16-8-6 16-2.5-6.5zM11.5 13.5L20 4" />
  </Svg>
)
/** Thumbs up; `down` turns it over (the end rating). */
export const ThumbIcon = (props: { down?: boolean }) => (
  <Svg size={18}>
    <path transform={props.down ? 'rotate(180 12 12)' : undefined} d="M7 11l4-9a3 3 0 0 1 3 3v4h5.7a2 2 0 0 1 2 2.3l-1.4 9a2 2 0 0 1-2 1.7H7zM7 22H4a2 2 0 0 1-2-2v-7a2 2 0 0 1 2-2h3" />
  </Svg>
)
/** A paperclip: attach a file. */
export const AttachIcon = () => (
  <Svg>
    <path d="M21 11.5l-8.6 8.6a5 5 0 0 1-7.1-7.1l8.6-8.6a3.5 3.5 0 0 1 5 5l-8.6 8.6a2 2 0 0 1-2.8-2.8l7.9-7.9" />
  </Svg>
)
/** A page with a folded corner: a document. */
export const FileIcon = () => (
  <Svg>
    <path d="M14 3H6a1 1 0 0 0-1 1v16a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V8zM14 3v5h5" />
  </Svg>
)
