import type { ChunkDelta, ModelAnswer, ToolCall, Usage } from './wire-format.ts'

/**
 * Joins a streamed answer's chunks: text fragments in order, and tool calls whose id, name
 * and argument fragments arrive spread over chunks, joined by their `index`.
 */
export function answerAssembler() {
  let content: string | null = null
  const calls = new Map<number, ToolCall>()
  let finishReason: string | null = null
  let usage: Usage | null = null

  return {
    /** Adds one chunk; returns the text it adds, if any (for a channel that streams). */
    add(chunk: unknown): string {
      const { delta, finish, usage: chunkUsage } = readChunk(chunk)
      if (chunkUsage) usage = chunkUsage
      if (finish) finishReason = finish
      if (!delta) return ''
      for (const part of delta.tool_calls ?? []) {
        if (typeof part?.index !== 'number') continue
        const call = calls.get(part.index) ?? { id: '', type: 'function' as const, function: { name: '', arguments: '' } }
        if (part.id) call.id = part.id
        if (part.function?.name) call.function.name += part.function.name
        if (part.function?.arguments) call.function.arguments += part.function.arguments
        calls.set(part.index, call)
      }
      const text = typeof delta.content === 'string' ? delta.content : ''
      if (text) content = (content ?? '') + text
      return text
    },
    answer(): ModelAnswer {
      const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }))
      return { content, toolCalls, finishReason, usage }
    },
  }
}

function readChunk(chunk: unknown): { delta: ChunkDelta | null; finish: string | null; usage: Usage | null } {
  const record = (chunk ?? {}) as { choices?: { delta?: ChunkDelta; finish_reason?: string | null }[]; usage?: Usage | null }
  const choice = Array.isArray(record.choices) ? record.choices[0] : undefined
  return { delta: choice?.delta ?? null, finish: choice?.finish_reason ?? null, usage: isUsage(record.usage) ? record.usage : null }
}

function isUsage(value: unknown): value is Usage {
  return typeof value === 'object' && value !== null && typeof (value as Usage).total_tokens === 'number'
}
