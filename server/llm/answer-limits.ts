/** `max_tokens` sent when neither the chatbot nor the state sets it, and the most either may set. */
export const DEFAULT_MAX_TOKENS = 1024
export const MAX_MAX_TOKENS = 8192

/** Tool calls read from one answer; more are dropped unread (the run runs fewer still). */
export const TOOL_CALLS_READ = 64
/** Characters of one tool call's arguments; a call with more is not run. */
export const ARGUMENT_CHARACTERS = 32_768
/** Characters of a function name kept: the names offered are far shorter. */
const NAME_CHARACTERS = 256

export interface AnswerLimits {
  /** Sent as `max_tokens`: what an honest provider stops at. */
  maxTokens: number
  /** Characters of text kept from one answer: what is stored, streamed to the visitor and sent back. */
  maxTextCharacters: number
  /** Bytes of one HTTP response read, whatever the provider sends. */
  maxResponseBytes: number
  maxToolCalls: number
  maxArgumentCharacters: number
  maxNameCharacters: number
}

/**
 * What one model call may bring, from the `max_tokens` it is sent: a provider that ignores it
 * (or a hostile endpoint) is still cut. A token is about 4 characters of English and rarely
 * more than 8 of anything, so the text is cut at 8 per token; a streamed token costs about
 * 200 bytes of server-sent events, so the response is read up to 384 bytes per token and at
 * least 1 MiB (room for tool calls' arguments).
 */
export function answerLimits(maxTokens: number = DEFAULT_MAX_TOKENS): AnswerLimits {
  return {
    maxTokens,
    maxTextCharacters: maxTokens * 8,
    maxResponseBytes: Math.max(1024 * 1024, maxTokens * 384),
    maxToolCalls: TOOL_CALLS_READ,
    maxArgumentCharacters: ARGUMENT_CHARACTERS,
    maxNameCharacters: NAME_CHARACTERS,
  }
}
