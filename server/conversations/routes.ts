import { Elysia, t } from 'elysia'
import type { Authenticate } from '../people/authenticate.ts'
import { ChatbotParams, PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import type { AgentService } from './agent-service.ts'
import {
  AgentMessage,
  ChatMessage,
  Conversation,
  ConversationList,
  ConversationParams,
  ConversationPatch,
  ConversationQuery,
  ConversationWithContact,
  ConversationReads,
  MessageList,
  ReadBody,
  TypingBody,
} from './model.ts'

const tags = ['Conversations']

export function conversationRoutes(auth: Authenticate, desk: AgentService) {
  return new Elysia({ prefix: '/chatbots/:chatbot_id/conversations' })
    .use(auth)
    .get('/', ({ workspaceId, params, query }) => {
      const { limit, offset, ...filter } = query
      return desk.list(workspaceId, params.chatbot_id, filter, { limit, offset })
    }, {
      params: ChatbotParams,
      query: ConversationQuery,
      response: { 200: ConversationList, ...errorResponses(404, 422) },
      detail: { tags, summary: "List a chatbot's conversations", description: 'Most recently active first; filter by status, channel or contact.' },
    })
    .get('/:conversation_id', ({ workspaceId, params }) => desk.get(workspaceId, params.chatbot_id, params.conversation_id), {
      params: ConversationParams,
      response: { 200: ConversationWithContact, ...errorResponses(404) },
      detail: { tags, summary: 'Get a conversation with its contact and contact details' },
    })
    .patch('/:conversation_id', ({ workspaceId, params, body }) => desk.patch(workspaceId, params.chatbot_id, params.conversation_id, body), {
      params: ConversationParams,
      body: ConversationPatch,
      response: { 200: Conversation, ...errorResponses(400, 404, 415, 422) },
      detail: { tags, summary: 'Change status', description: 'bot hands back to the bot, which resumes per the flow; handoff takes over; closed ends it.' },
    })
    .get('/:conversation_id/messages', ({ workspaceId, params, query }) => desk.messages(workspaceId, params.chatbot_id, params.conversation_id, query), {
      params: ConversationParams,
      query: PageQuery,
      response: { 200: MessageList, ...errorResponses(404, 422) },
      detail: { tags, summary: "List a conversation's messages", description: 'Oldest first.' },
    })
    .post('/:conversation_id/messages', ({ workspaceId, params, body, status }) =>
      status(201, desk.post(workspaceId, params.chatbot_id, params.conversation_id, body.text, body.author, body.author_avatar_url)), {
      params: ConversationParams,
      body: AgentMessage,
      response: { 201: ChatMessage, ...errorResponses(400, 404, 413, 415, 422) },
      detail: { tags, summary: 'Send a message as a human agent', description: 'Delivered live to the visitor; the bot stops answering (status handoff).' },
    })
    .post('/:conversation_id/read', ({ workspaceId, params, body }) => desk.read(workspaceId, params.chatbot_id, params.conversation_id, body?.up_to), {
      params: ConversationParams,
      body: t.Optional(ReadBody),
      response: { 200: ConversationReads, ...errorResponses(400, 404, 415, 422) },
      detail: {
        tags,
        summary: 'Mark the conversation read by an agent',
        description: 'Up to a message (default: the newest). The visitor sees "Seen" on their messages up to there; a mark never moves back.',
      },
    })
    .post('/:conversation_id/typing', ({ workspaceId, params, body, status }) => {
      desk.typing(workspaceId, params.chatbot_id, params.conversation_id, body.active)
      return status(204, undefined)
    }, {
      params: ConversationParams,
      body: TypingBody,
      response: { 204: t.Void(), ...errorResponses(400, 404, 415, 422) },
      detail: { tags, summary: 'Show or hide "agent is typing" to the visitor' },
    })
}
