import { unprocessable } from '../http/api-error.ts'
import { runEngine } from '../engine/run-engine.ts'
import type { ConversationFlow } from './conversation-flow-schema.ts'
import type { DraftRun, DraftRunResult } from './draft-run-model.ts'
import type { FlowService } from './service.ts'

export type DraftRunner = ReturnType<typeof draftRunner>

/**
 * Runs a flow's draft through the real engine, one input at a time, storing nothing: the
 * caller keeps the state between inputs, so the console can try a flow before it is published
 * without a live conversation, a contact or a message being written.
 */
export function draftRunner(flows: Pick<FlowService, 'checkDraft'>) {
  return {
    run(workspaceId: string, chatbotId: string, flowId: string, request: DraftRun): DraftRunResult {
      const { type, definition, report } = flows.checkDraft(workspaceId, chatbotId, flowId, request.flow)
      if (type !== 'conversation') {
        throw unprocessable('not_a_conversation_flow', 'only conversation flows run; a meta flow is a WhatsApp Flow JSON document, sent by a conversation flow')
      }
      // The engine runs validated flows only: an unchecked draft could name states that do not exist.
      if (report.errors.length > 0) {
        const count = report.errors.length
        throw unprocessable('flow_invalid', `the draft has ${count} validation error${count === 1 ? '' : 's'}; fix them to run it`, report.errors)
      }
      const state = request.input.kind === 'start' ? null : request.state
      const result = runEngine(definition as ConversationFlow, state, request.input, { contact: request.contact ?? {} })
      return { state: result.state, messages: result.messages, events: result.events }
    },
  }
}
