import { type AnswerLimits, answerLimits } from './answer-limits.ts'
import type { ChunkDelta, ModelAnswer, ToolCall, Usage } from './wire-format.ts'

/**
 * Joins a streamed answer's chunks: text fragments in order, and tool calls whose id, name
 * and argument fragments arrive spread over chunks, joined by their `index`. Whatever a
 * provider sends, what is kept is bounded: the text up to `maxTextCharacters`, at most
 * `maxToolCalls` calls, each one's arguments up to one character past
 * `maxArgumentCharacters` (enough to tell that it is over) and its name cut; `answer().cut`
 * says what was dropped.
 */
export function answerAssembler(limits: AnswerLimits = answerLimits()) {
  let content: string | null = null
  let textCut = false
  const calls = new Map<number, ToolCall>()
  let callsDropped = 0
  const droppedIndexes = new Set<number>()
  let finishReason: string | null = null
  let usage: Usage | null = null
  const argumentRoom = limits.maxArgumentCharacters + 1

  function keepText(text: string): string {
    const room = limits.maxTextCharacters - (content?.length ?? 0)
    if (text.length > room) textCut = true
    const kept = text.length > room ? text.slice(0, Math.max(0, room)) : text
    if (kept) content = (content ?? '') + kept
    return kept
  }

  return {
    /** Adds one chunk; returns the text it adds and that is kept, if any (for a channel that streams). */
    add(chunk: unknown): string {
      const { delta, finish, usage: chunkUsage } = readChunk(chunk)
      if (chunkUsage) usage = chunkUsage
      if (finish) finishReason = finish
      if (!delta) return ''
      for (const part of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
        if (typeof part?.index !== 'number') continue
        let call = calls.get(part.index)
        if (!call) {
          if (calls.size >= limits.maxToolCalls) {
            if (!droppedIndexes.has(part.index) && droppedIndexes.size < 100_000) droppedIndexes.add(part.index)
            callsDropped = Math.max(callsDropped, droppedIndexes.size)
            continue
          }
          call = { id: '', type: 'function', function: { name: '', arguments: '' } }
          calls.set(part.index, call)
        }
        if (typeof part.id === 'string' && part.id) call.id = part.id.slice(0, limits.maxNameCharacters)
        const fn = part.function
        if (typeof fn?.name === 'string') call.function.name = (call.function.name + fn.name).slice(0, limits.maxNameCharacters)
        if (typeof fn?.arguments === 'string' && call.function.arguments.length < argumentRoom) {
          call.function.arguments = (call.function.arguments + fn.arguments).slice(0, argumentRoom)
        }
      }
      return typeof delta.content === 'string' ? keepText(delta.content) : ''
    },
    answer(): ModelAnswer {
      const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([index, call]) => ({ ...call, id: call.id || `call_${index}` }))
      const cut = [
        textCut ? `the text passed ${limits.maxTextCharacters} characters (max_tokens ${limits.maxTokens}); the rest was dropped` : null,
        callsDropped ? `${callsDropped} more tool calls were dropped: at most ${limits.maxToolCalls} are read from one answer` : null,
      ].filter(Boolean)
      return { content, toolCalls, finishReason, usage, ...(cut.length ? { cut: cut.join('; ') } : {}) }
    },
  }
}

function readChunk(chunk: unknown): { delta: ChunkDelta | null; finish: string | null; usage: Usage | null } {
  const record = (chunk ?? {}) as { choices?: { delta?: ChunkDelta; finish_reason?: string | null }[]; usage?: Usage | null }
  const choice = Array.isArray(record.choices) ? record.choices[0] : undefined
  const finish = typeof choice?.finish_reason === 'string' ? choice.finish_reason.slice(0, 40) : null
  return { delta: choice?.delta ?? null, finish, usage: usageOf(record.usage) }
}

/** The three counts, as numbers, and nothing else a provider put beside them (they reach the trace). */
function usageOf(value: unknown): Usage | null {
  if (typeof value !== 'object' || value === null || typeof (value as Usage).total_tokens !== 'number') return null
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : 0)
  const { prompt_tokens, completion_tokens, total_tokens } = value as Usage
  return { prompt_tokens: count(prompt_tokens), completion_tokens: count(completion_tokens), total_tokens: count(total_tokens) }
}
