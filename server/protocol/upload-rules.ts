/**
 * The visitor's file uploads as plain constants: imported by the server and by the widget at
 * run time, so this file imports nothing (widget-protocol.ts has the schemas).
 */

/**
 * POST here (`?key=wk_...&client_id=...&filename=...`) the file's bytes as the body, with
 * `Authorization: Bearer <welcome.upload_token>`: the visitor's media message is stored and
 * comes back on the socket like a text's echo. docs/widget-protocol.md §10.
 */
export const UPLOAD_PATH = '/widget/v1/attachments'

/** What the server takes, recognised by the file's first bytes (the file picker's `accept` list). */
export const UPLOAD_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const

/** How the refusals name them. */
export const UPLOAD_TYPES_TEXT = 'PNG, JPEG, GIF or WebP images and PDF files'
