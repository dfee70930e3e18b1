/**
 * The OpenAI-compatible chat-completions format, as Parley speaks it to any provider (OpenAI,
 * Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter, Groq). Only what Parley sends and reads
 * is typed; providers add fields freely.
 */

export interface ToolDefinition {
  type: 'function'
  function: { name: string; description?: string; parameters: Record<string, unknown> }
}

export interface ToolCall {
  id: string
  type: 'function'
  /** `arguments` is JSON text as the model wrote it: it may be malformed. */
  function: { name: string; arguments: string }
}

export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string }

export interface ChatRequestBody {
  model: string
  messages: ChatMessage[]
  temperature?: number
  tools?: ToolDefinition[]
  tool_choice?: 'auto'
  /** The most the model may write: honest providers stop there (answerLimits cuts the others). */
  max_tokens?: number
  stream: boolean
  stream_options?: { include_usage: boolean }
}

export interface Usage {
  prompt_tokens: number
  completion_tokens: number
  total_tokens: number
}

/** What one call of the model produced, streamed or not. */
export interface ModelAnswer {
  content: string | null
  toolCalls: ToolCall[]
  /** `stop`, `tool_calls`, `length`, `content_filter`, or what a provider says instead. */
  finishReason: string | null
  usage: Usage | null
  /** Why part of the answer was not kept (over a limit), when part was not. */
  cut?: string
}

/** One streamed chunk's `choices[0].delta`. */
export interface ChunkDelta {
  content?: string | null
  tool_calls?: { index: number; id?: string; type?: 'function'; function?: { name?: string; arguments?: string } }[]
}
