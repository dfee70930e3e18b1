import type { ChatMessage } from '../../server/protocol/widget-protocol.ts'

export interface UploadRequest {
  /** `{server}/widget/v1/attachments?key=wk_...` */
  url: string
  /** The welcome's upload_token. */
  token: string
  clientId: string
  file: Blob & { name: string }
  /** Sent share of the bytes, 0 to 1. */
  onProgress: (sent: number) => void
}

/**
 * Why the server (or the network) refused an upload: its problem+json code (`network` when no
 * answer came), which the widget words in the visitor's language, and its detail as the message.
 */
export class UploadRefused extends Error {
  // Assigned in the constructor rather than as parameter properties, which es2020 lowers into helpers.
  declare readonly code: string | undefined
  declare readonly status: number
  constructor(message: string, code: string | undefined, status: number) {
    super(message)
    Object.assign(this, { code, status })
  }
}

/**
 * Sends one file as the raw body of a POST (XMLHttpRequest, for its upload progress) and
 * answers the visitor's media message as stored. A refusal's problem+json detail becomes the
 * error's message, which the bubble shows.
 */
export function uploadFile({ url, token, clientId, file, onProgress }: UploadRequest): Promise<ChatMessage> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', `${url}&client_id=${encodeURIComponent(clientId)}&filename=${encodeURIComponent(file.name)}`)
    xhr.setRequestHeader('authorization', `Bearer ${token}`)
    xhr.setRequestHeader('content-type', file.type || 'application/octet-stream')
    xhr.responseType = 'json'
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total)
    }
    xhr.onload = () => {
      const body = xhr.response as { message?: ChatMessage; detail?: string; code?: string } | null
      if (xhr.status >= 200 && xhr.status < 300 && body?.message) return resolve(body.message)
      reject(new UploadRefused(body?.detail ? refusalNote(body.detail) : '', body?.code, xhr.status))
    }
    xhr.onerror = () => reject(new UploadRefused('', 'network', 0))
    xhr.send(file)
  })
}

/** A problem+json detail as the bubble shows it: a sentence, capitalized, with its full stop. */
export function refusalNote(detail: string): string {
  const sentence = detail.charAt(0).toUpperCase() + detail.slice(1)
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
}
