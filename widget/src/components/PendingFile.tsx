import { Show } from 'solid-js'
import type { Outgoing } from '../session.ts'
import { fileSizeText } from '../../../server/protocol/file-size-text.ts'
import { fillText } from '../fill-text.ts'
import type { Speech } from '../speech.ts'
import { FileIcon } from './Icons.tsx'

/**
 * A file on its way: the picture itself (from the visitor's own device) or a card with its
 * name and size, and how much has been sent; a refused file is shown by its name, whatever
 * its bytes were. The name is text, never markup.
 */
export function PendingFile(props: { file: NonNullable<Outgoing['file']>; sending: boolean; speech: Speech }) {
  const percent = () => Math.round(props.file.progress * 100)
  return (
    <>
      <Show
        when={props.sending && props.file.preview}
        fallback={
          <span class="file">
            <FileIcon />
            <span class="file-name">{props.file.name}</span>
            <span class="file-size">{fileSizeText(props.file.size)}</span>
          </span>
        }
      >
        {(preview) => <img class="media" src={preview()} alt={props.file.name} />}
      </Show>
      <Show when={props.sending}>
        <span class="progress" role="progressbar" aria-label={fillText(props.speech.t.sending_file, { name: props.file.name })} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent()}>
          <span style={{ width: `${percent()}%` }} />
        </span>
      </Show>
    </>
  )
}
