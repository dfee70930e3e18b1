import { checkBranches } from './conversation/branch-rules.ts'
import { type ChatbotReferences, checkChatbotReferences } from './conversation/chatbot-reference-rules.ts'
import { definitionView } from './conversation/definition-view.ts'
import { Findings } from './conversation/findings.ts'
import { checkMessages } from './conversation/message-rules.ts'
import { checkNames } from './conversation/name-rules.ts'
import { checkReachability } from './conversation/reachability-rules.ts'
import { checkSchema } from './conversation/schema-rules.ts'
import { checkStateReferences } from './conversation/state-reference-rules.ts'
import { checkTransitions } from './conversation/transition-rules.ts'
import { checkVariables } from './conversation/variable-rules.ts'
import { checkWaysOut } from './conversation/way-out-rules.ts'
import type { ValidationReport } from './validation-issue.ts'

export type { ChatbotReferences } from './conversation/chatbot-reference-rules.ts'

/**
 * Checks a `conversation` flow definition (docs/flows.md) and reports every problem at once:
 * errors refuse publishing, warnings do not. Each entry's `path` is a JSON Pointer into the
 * definition. `references` is what the chatbot has, for the rules that look outside the flow.
 */
export function validateConversationFlow(definition: unknown, references: ChatbotReferences): ValidationReport {
  const findings = new Findings()
  const view = definitionView(definition)
  checkSchema(definition, findings)
  checkNames(view, findings)
  checkWaysOut(view, findings)
  checkStateReferences(view, findings)
  checkTransitions(view, findings)
  checkBranches(view, findings)
  checkMessages(view, findings)
  checkVariables(view, findings)
  checkChatbotReferences(view, references, findings)
  checkReachability(view, findings)
  return findings.report()
}

export { CONVERSATION_ERROR_CODES, CONVERSATION_WARNING_CODES } from './conversation/codes.ts'
