import type { FlowType } from '../model.ts'
import { type ChatbotReferences, validateConversationFlow } from './conversation.ts'
import { validateMetaFlow } from './meta.ts'
import type { ValidationReport } from './validation-issue.ts'

/**
 * Validates a definition by the rules of its flow type. References to the chatbot's data are
 * looked up only for the types that use them (meta flows refer to nothing outside themselves).
 */
export function validateFlow(type: FlowType, definition: unknown, references: () => ChatbotReferences): ValidationReport {
  return type === 'conversation' ? validateConversationFlow(definition, references()) : validateMetaFlow(definition)
}
