/**
 * Every code the conversation validator reports: stable, snake_case, documented in
 * docs/flows.md. Errors refuse publishing; warnings do not.
 */
export const CONVERSATION_ERROR_CODES = [
  'unknown_key',
  'wrong_type',
  'missing_field',
  'invalid_value',
  'invalid_state_name',
  'invalid_variable_name',
  'unknown_state',
  'no_way_out',
  'several_ways_out',
  'endless_loop',
  'invalid_regex',
  'unsupported_regex',
  'unsafe_regex',
  'duplicate_reply_id',
  'undeclared_variable',
  'capture_type_mismatch',
  'unknown_meta_flow',
  'unknown_tool_integration',
] as const

export const CONVERSATION_WARNING_CODES = [
  'unreachable_state',
  'unreachable_transition',
  'no_fallback',
  'unknown_reply_id',
  'unused_variable',
  'unpublished_meta_flow',
  'too_many_buttons',
  'button_title_too_long',
  'too_many_list_rows',
  'row_title_too_long',
  'text_too_long',
] as const

export type ConversationErrorCode = (typeof CONVERSATION_ERROR_CODES)[number]
export type ConversationWarningCode = (typeof CONVERSATION_WARNING_CODES)[number]
