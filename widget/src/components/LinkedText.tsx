import { For } from 'solid-js'
import { splitLinks } from '../links.ts'

/** Text with its http(s)/mailto links made clickable: text nodes and <a> elements, never HTML. */
export function LinkedText(props: { text: string }) {
  return (
    <For each={splitLinks(props.text)}>
      {(piece) =>
        piece.href ? (
          <a href={piece.href} target="_blank" rel="noopener noreferrer">
            {piece.text}
          </a>
        ) : (
          piece.text
        )
      }
    </For>
  )
}
