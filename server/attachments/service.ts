import { answeredNow } from '../db/answered-now.ts'
import type { Units } from '../db/units.ts'
import { ApiError, notFound } from '../http/api-error.ts'
import { fileSizeText, fileTooLargeText } from '../protocol/file-size-text.ts'
import type { Clock } from '../support/clock.ts'
import { constantTimeEqual } from '../support/constant-time-equal.ts'
import { newId } from '../support/new-id.ts'
import { randomToken } from '../support/random-token.ts'
import {
  ALLOWED_TYPES_TEXT,
  ATTACHMENT_TYPES,
  type AttachmentRecord,
  CONVERSATION_LIMITS,
  type SavedAttachment,
  type UploadedBy,
} from './model.ts'
import { safeFilename } from './safe-filename.ts'
import { describeRefused, sniffType } from './sniff-type.ts'
import type { AttachmentRow, AttachmentStore } from './store.ts'

/** Characters of base62 in an address's key: about 190 bits from the CSPRNG. */
const KEY_LENGTH = 32

export interface SaveInput {
  workspaceId: string
  chatbotId: string
  conversationId: string
  role: UploadedBy
  /** As the sender named it; made safe (see safe-filename.ts). */
  filename: string
  bytes: Uint8Array
}

/** A checked file, not stored yet: for a message that may open its conversation, or be a resend. */
export interface PreparedAttachment extends SavedAttachment {
  /**
   * Stores the file in `conversationId` as one unit (on SQLite in the same batch as the message
   * that shows it, when both are written in one turn of the event loop). Not awaited by the
   * synchronous turn: a failure is its batch's, rolled back and logged with the message.
   */
  write(conversationId: string): void
}

type AttachmentStores = { attachments: AttachmentStore }

interface Deps {
  /** Reads outside a unit; the upload's write through one (docs/architecture.md, "The store seam"). */
  stores: AttachmentStores
  units: Units<AttachmentStores>
  now: Clock
  /** PARLEY_PUBLIC_URL: the files' addresses start with it. */
  publicUrl: string
  /** PARLEY_ATTACHMENT_MAX_BYTES: the largest file. */
  maxBytes: number
  /** Per conversation; CONVERSATION_LIMITS unless a test makes them small. */
  conversationLimits?: { files: number; bytes: number }
}

export type AttachmentService = ReturnType<typeof attachmentService>

const sha256Hex = (data: Uint8Array | string) => new Bun.CryptoHasher('sha256').update(data).digest('hex')

/** The record without its key's digest, which never leaves the service. */
const recordOf = ({ key_hash: _, ...attachment }: AttachmentRow): AttachmentRecord => attachment

/** The 413 for a file over the limit (its size when known: a body refused by its Content-Length is not read). */
export function attachmentTooLarge(maxBytes: number, size?: number, headers?: Record<string, string>): ApiError {
  return new ApiError(413, 'attachment_too_large', fileTooLargeText(maxBytes, size), undefined, headers)
}

/**
 * Files in conversations: checked by their bytes (type and size), kept in the database, and
 * served at an address whose random key is the permission to read it. The key is shown once,
 * in the message content; only its digest is stored, compared in constant time.
 */
export function attachmentService({ stores, units, now, publicUrl, maxBytes, conversationLimits = CONVERSATION_LIMITS }: Deps) {
  const store = stores.attachments

  /** Refuses what may not be kept in this conversation: too big, empty, not an allowed type, over its limits. */
  function check(bytes: Uint8Array, conversationId: string | null) {
    if (bytes.byteLength > maxBytes) throw attachmentTooLarge(maxBytes, bytes.byteLength)
    if (bytes.byteLength === 0) throw new ApiError(400, 'attachment_empty', 'the file is empty')
    const type = sniffType(bytes)
    if (!type) {
      const looks = describeRefused(bytes)
      throw new ApiError(415, 'attachment_type_refused', `only ${ALLOWED_TYPES_TEXT} can be sent${looks ? `; this file is ${looks}` : ''}`)
    }
    if (conversationId) {
      // Read in the caller's tick: the channels check a file inside their synchronous turn (answered-now.ts).
      const used = answeredNow(store.usage(conversationId))
      if (used.files >= conversationLimits.files) {
        throw new ApiError(413, 'attachment_limit_reached', `this conversation already holds ${conversationLimits.files} files, the most it may`)
      }
      if (used.bytes + bytes.byteLength > conversationLimits.bytes) {
        throw new ApiError(413, 'attachment_limit_reached', `this conversation's files may take at most ${fileSizeText(conversationLimits.bytes, 'down')} together; ${fileSizeText(used.bytes)} are used`)
      }
    }
    return type
  }

  function prepare(input: Omit<SaveInput, 'conversationId'> & { conversationId: string | null }): PreparedAttachment {
    const type = check(input.bytes, input.conversationId)
    const filename = safeFilename(input.filename, type)
    const key = randomToken(KEY_LENGTH)
    const record: AttachmentRecord = {
      id: newId(),
      workspace_id: input.workspaceId,
      chatbot_id: input.chatbotId,
      conversation_id: input.conversationId ?? '',
      content_type: type,
      byte_size: input.bytes.byteLength,
      filename,
      sha256: sha256Hex(input.bytes),
      uploaded_by: input.role,
      created_at: now(),
    }
    const url = `${publicUrl}/attachments/${record.id}/${key}/${encodeURIComponent(filename)}`
    const keyHash = sha256Hex(key)
    return {
      attachment: record,
      content: { kind: 'media', media: { type: ATTACHMENT_TYPES[type].kind, url, filename } },
      write(conversationId) {
        record.conversation_id = conversationId
        const row: AttachmentRow = { ...record, key_hash: keyHash }
        units.unit((tx) => tx.attachments.insert(row, input.bytes)).catch(() => {})
      },
    }
  }

  /** The stored row when `key` opens it; null for an unknown id or a wrong key alike. */
  async function unlock(id: string, key: string): Promise<AttachmentRow | null> {
    const row = await store.get(id)
    if (!row) {
      // The same work for an unknown id, so timing does not tell ids apart.
      constantTimeEqual(sha256Hex(key), sha256Hex(id))
      return null
    }
    return constantTimeEqual(sha256Hex(key), row.key_hash) ? row : null
  }

  return {
    /** PARLEY_ATTACHMENT_MAX_BYTES. */
    maxBytes,

    prepare,

    /** Checks and stores a file in a running conversation; answers the record and the content of the message that shows it. */
    save(input: SaveInput): SavedAttachment {
      const prepared = prepare(input)
      prepared.write(input.conversationId)
      return { attachment: prepared.attachment, content: prepared.content }
    },

    /** What the address `/attachments/{id}/{key}/...` serves, or 404 (an unknown id and a wrong key alike). */
    async open(id: string, key: string): Promise<{ attachment: AttachmentRecord; bytes: Uint8Array<ArrayBuffer> }> {
      const row = await unlock(id, key)
      const bytes = row ? await store.bytes(row.id) : null
      if (!row || !bytes) throw notFound('attachment')
      return { attachment: recordOf(row), bytes }
    },

    /** An attachment of a workspace, for the API (another workspace's answers 404). */
    async get(workspaceId: string, id: string): Promise<AttachmentRecord> {
      const row = await store.get(id)
      if (!row || row.workspace_id !== workspaceId) throw notFound('attachment')
      return recordOf(row)
    },

    /** The bytes of a workspace's attachment (to hand a file to a channel that uploads it elsewhere). */
    async bytes(workspaceId: string, id: string): Promise<Uint8Array<ArrayBuffer>> {
      const row = await store.get(id)
      const bytes = row && row.workspace_id === workspaceId ? await store.bytes(id) : null
      if (!bytes) throw notFound('attachment')
      return bytes
    },
  }
}
