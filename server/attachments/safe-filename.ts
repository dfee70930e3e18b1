import { ATTACHMENT_TYPES, type AttachmentType, FILENAME_MAX_LENGTH } from './model.ts'

/**
 * A file name safe to store, put in an address and show: no folders, control characters,
 * quotes or characters that mean something in a path or a header; at most 200 characters;
 * always ending in an extension of the type the bytes have (`photo` becomes `photo.png`,
 * `page.html` holding a PNG becomes `page.html.png`), so a saved copy opens as what it is.
 */
export function safeFilename(raw: string, type: AttachmentType): string {
  const { extensions } = ATTACHMENT_TYPES[type]
  const base = raw.normalize('NFC').split(/[\\/]/).pop() ?? ''
  const name = base
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069"'`<>:*?|%;]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\.+/, '')
  const dot = name.lastIndexOf('.')
  const kept = dot > 0 && (extensions as readonly string[]).includes(name.slice(dot + 1).toLowerCase())
  const ending = kept ? name.slice(dot) : `.${extensions[0]}`
  let stem = (kept ? name.slice(0, dot) : name).trim() || 'attachment'
  // Cut to the room left, never leaving half a surrogate pair at the end.
  const room = FILENAME_MAX_LENGTH - ending.length
  if (stem.length > room) stem = stem.slice(0, room).replace(/[\uD800-\uDBFF]$/, '')
  return `${stem}${ending}`
}
