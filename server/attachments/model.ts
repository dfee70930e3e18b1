import { type Static, t } from 'elysia'
import type { Content } from '../protocol/widget-protocol.ts'

/**
 * The only kinds of file Parley keeps, told by their first bytes (never by a declared type or
 * a file name): pictures a browser shows as an image and PDF documents. None of them can run
 * script when opened from Parley's origin, unlike SVG or HTML.
 */
export const ATTACHMENT_TYPES = {
  'image/png': { kind: 'image', extensions: ['png'], label: 'PNG' },
  'image/jpeg': { kind: 'image', extensions: ['jpg', 'jpeg'], label: 'JPEG' },
  'image/gif': { kind: 'image', extensions: ['gif'], label: 'GIF' },
  'image/webp': { kind: 'image', extensions: ['webp'], label: 'WebP' },
  'application/pdf': { kind: 'file', extensions: ['pdf'], label: 'PDF' },
} as const

export type AttachmentType = keyof typeof ATTACHMENT_TYPES

/** "PNG, JPEG, GIF or WebP images and PDF files": what refusals tell the sender (the widget says the same). */
export { UPLOAD_TYPES_TEXT as ALLOWED_TYPES_TEXT } from '../protocol/upload-rules.ts'

/** Who sent the file into the conversation. */
export type UploadedBy = 'visitor' | 'agent' | 'bot'

/** Longest kept file name, in characters (a longer one is shortened, its extension kept). */
export const FILENAME_MAX_LENGTH = 200

/** Per conversation, so that one visitor cannot fill the disk: files, and their bytes together. */
export const CONVERSATION_LIMITS = { files: 50, bytes: 100 * 1024 * 1024 } as const

/** An attachment as stored, without its bytes. */
export interface AttachmentRecord {
  id: string
  workspace_id: string
  chatbot_id: string
  conversation_id: string
  content_type: AttachmentType
  byte_size: number
  filename: string
  /** Hex sha256 of the bytes; the ETag. */
  sha256: string
  uploaded_by: UploadedBy
  created_at: string
}

/** The message content that shows an attachment (the protocol's `media` content). */
export type MediaContent = Extract<Content, { kind: 'media' }>

/** What saving a file answers: the stored record, and the content of the message that shows it. */
export interface SavedAttachment {
  attachment: AttachmentRecord
  /** `{ kind: 'media', media: { type, url, filename } }`; the url is the file's capability. */
  content: MediaContent
}

/** The record as the API describes it (the upload's answer). */
export const Attachment = t.Object({
  id: t.String(),
  conversation_id: t.String(),
  content_type: t.Union(Object.keys(ATTACHMENT_TYPES).map((type) => t.Literal(type))),
  byte_size: t.Integer(),
  filename: t.String(),
  url: t.String({ description: 'where the file is served; the address itself is the permission to read it, so share it only with who may see the conversation' }),
  created_at: t.String(),
})
export type Attachment = Static<typeof Attachment>
