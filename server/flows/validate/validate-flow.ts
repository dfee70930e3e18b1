import type { FlowType } from '../model.ts'
import { type ChatbotReferences, validateConversationFlow } from './conversation.ts'
import type { ValidationReport } from './validation-issue.ts'

/**
 * Validates a definition by the rules of its flow type. References are looked up only for
 * the types that use them.
 */
export function validateFlow(type: FlowType, definition: unknown, references: () => ChatbotReferences): ValidationReport {
  if (type === 'conversation') return validateConversationFlow(definition, references())
  // Until the meta flow validator lands, a meta flow cannot pass: publishing stays refused
  // rather than letting an unchecked document go live.
  return {
    errors: [{ path: '', code: 'meta_validator_missing', message: 'meta flows cannot be validated by this build yet' }],
    warnings: [],
  }
}
