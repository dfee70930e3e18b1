import { isRecord, objectsIn, type DefinitionView } from './definition-view.ts'
import type { Findings } from './findings.ts'

/** What a conversation flow may refer to in its chatbot, looked up when it is validated. */
export interface ChatbotReferences {
  /** Every flow of the chatbot by id (a `meta_flow` message must name a `meta` one). */
  flows: ReadonlyMap<string, { type: 'conversation' | 'meta'; published: boolean }>
  /** Ids of the chatbot's `mcp` integrations, which agent tools draw on. */
  mcpIntegrationIds: ReadonlySet<string>
}

/** `meta_flow.flow_id` names a meta flow of the same chatbot; agent tools name its mcp integrations. */
export function checkChatbotReferences(view: DefinitionView, references: ChatbotReferences, findings: Findings): void {
  for (const entry of view.states) {
    for (const { message, path } of view.messages(entry)) {
      if (!isRecord(message.meta_flow) || typeof message.meta_flow.flow_id !== 'string') continue
      const id = message.meta_flow.flow_id
      const target = references.flows.get(id)
      const at = `${path}/meta_flow/flow_id`
      if (!target) findings.error(at, 'unknown_meta_flow', `"${id}" names no flow of this chatbot`)
      else if (target.type !== 'meta') findings.error(at, 'unknown_meta_flow', `"${id}" is a ${target.type} flow; a meta_flow message sends a meta flow`)
      else if (!target.published) {
        findings.warning(at, 'unpublished_meta_flow', `meta flow "${id}" is not published yet; publish it before this message can be sent`)
      }
    }
    if (!isRecord(entry.state.agent)) continue
    for (const { value: tool, index } of objectsIn(entry.state.agent.tools)) {
      if (typeof tool.integration_id !== 'string' || references.mcpIntegrationIds.has(tool.integration_id)) continue
      findings.error(
        `${entry.path}/agent/tools/${index}/integration_id`,
        'unknown_tool_integration',
        `"${tool.integration_id}" names no mcp integration of this chatbot`,
      )
    }
  }
}
