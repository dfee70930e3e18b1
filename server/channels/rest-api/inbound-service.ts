import type { AttachmentService, PreparedAttachment } from '../../attachments/service.ts'
import { normalizeContactDetails } from '../../conversations/contact-details.ts'
import type { ChannelContext, ConversationService, VisitorInput } from '../../conversations/service.ts'
import type { VisitorService } from '../../conversations/visitor-service.ts'
import { keyedLock } from '../../db/keyed-lock.ts'
import { ApiError, conflict, unprocessable } from '../../http/api-error.ts'
import type { IntegrationService } from '../../integrations/service.ts'
import type { InboundStore } from './inbound-store.ts'
import type { InboundAccepted, InboundMessage } from './model.ts'
import { contactExternalId } from './user-id.ts'

interface Deps {
  integrations: Pick<IntegrationService, 'restApi'>
  visitors: VisitorService
  conversations: ConversationService
  attachments: AttachmentService
  stores: { restApiInbound: InboundStore }
}

export interface Received {
  accepted: InboundAccepted
  /** A retry of a client_id already stored: nothing was stored or run again. */
  replayed: boolean
}

export type RestApiInbound = ReturnType<typeof restApiInbound>

/**
 * A user's message arriving through the API: the contact it comes from (found or created),
 * the conversation it continues (or a new one, in the entry flow), stored once per client_id,
 * and answered by the bot, whose messages leave by webhook.
 */
export function restApiInbound({ integrations, visitors, conversations, attachments, stores }: Deps) {
  const store = stores.restApiInbound
  // One user's messages are taken one at a time in this process: what a message resumes and
  // whether its client_id was stored are read (awaited) and then written in one go, and a
  // second message of the user must read what the first wrote. Across nodes: the turn's
  // conversationUnit, once the turn is a unit (postgres-plan.md, wave 2).
  const perUser = keyedLock()
  return {
    async receive(workspaceId: string, chatbotId: string, input: InboundMessage): Promise<Received> {
      const integration = await integrations.restApi.get(workspaceId, chatbotId)
      if (!integration.is_active) {
        throw conflict('integration_inactive', 'the rest-api integration is switched off; PATCH it with "is_active": true to take messages again')
      }
      const given = contentOf(input)
      const externalId = contactExternalId(input.user_id)
      return perUser.run(`${chatbotId} ${externalId}`, () => take({ workspaceId, chatbotId, integrationId: integration.id }, input, given, externalId))
    },
  }

  /** The rest of a message, its user's earlier ones taken: the reads awaited, then every write in one go. */
  async function take(
    { workspaceId, chatbotId, integrationId }: { workspaceId: string; chatbotId: string; integrationId: string },
    input: InboundMessage,
    given: Given,
    externalId: string,
  ): Promise<Received> {
    const visitor = { externalId, tokenHash: '' }
    const known = visitors.findContact(chatbotId, visitor)
    const [earlier, running] = known
      ? await Promise.all([input.client_id ? store.findUserMessage(known.id, input.client_id) : undefined, store.latestOpenConversation(known.id, integrationId)])
      : [undefined, undefined]
    if (known && earlier) return { accepted: { conversation_id: earlier.conversation_id, contact: { id: known.id, external_id: externalId }, message: earlier }, replayed: true }

    // A refused file stores nothing: not the details that came with it, not a new user's contact.
    const file: PreparedAttachment | null =
      given.kind === 'file'
        ? attachments.prepare({ workspaceId, chatbotId, conversationId: running?.id ?? null, role: 'visitor', filename: given.filename, bytes: given.bytes })
        : null
    const contact = known ?? visitors.ensureContact(chatbotId, visitor)
    const shown = { id: contact.id, external_id: externalId }
    const content = file ? file.content : (given as VisitorInput['content'])
    // Before the bot runs, so that its first answer can already use them.
    if (input.contact_details) visitors.mergeDetails(contact.id, normalizeContactDetails(input.contact_details).details)
    const ctx: ChannelContext = { chatbotId, channel: 'rest-api', integrationId }
    const said = { clientId: input.client_id, content }
    // A first message opens the conversation; it answers only what the first state listens for, as on every channel.
    const { conversation, message, duplicate } = running
      ? { conversation: running, ...conversations.visitorSays(running, said, ctx) }
      : { ...conversations.openWith(ctx, contact.id, null, said), duplicate: false }
    // In the same write as the message that shows it.
    if (file && !duplicate) file.write(conversation.id)
    return { accepted: { conversation_id: conversation.id, contact: shown, message }, replayed: duplicate }
  }
}

type Given = VisitorInput['content'] | { kind: 'file'; filename: string; bytes: Uint8Array }

function contentOf(input: InboundMessage): Given {
  const sent = (['text', 'reply', 'attachment'] as const).filter((field) => input[field] !== undefined)
  if (sent.length > 1) throw oneOf(`send one of text, reply or attachment, not ${sent.join(' and ')}`, sent.map((field) => `/${field}`))
  if (input.text !== undefined) return { kind: 'text', text: input.text }
  if (input.reply !== undefined) return { kind: 'reply', ...input.reply }
  if (input.attachment !== undefined) return { kind: 'file', filename: input.attachment.filename, bytes: fromBase64(input.attachment.data) }
  throw oneOf('send text (a message), reply (the pick of a button or list row) or attachment (a file)', ['/text'])
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/** Strict: a lenient decoder would store a corrupted file rather than say the data is wrong. */
function fromBase64(data: string): Uint8Array {
  const bare = data.replace(/=+$/, '')
  if (!BASE64.test(data) || bare.length % 4 === 1) {
    throw oneOf('attachment.data must be the file in base64 (A-Z a-z 0-9 + /, = padding at the end)', ['/attachment/data'])
  }
  return new Uint8Array(Buffer.from(bare, 'base64'))
}

function oneOf(message: string, paths: string[]): ApiError {
  return unprocessable('validation_failed', `the request body is invalid: ${message}`, paths.map((path) => ({ path, message })))
}
