import { ARGUMENT_CHARACTERS } from '../llm/answer-limits.ts'
import type { ToolCall } from '../llm/wire-format.ts'

/** Tool calls run from one model answer, and in one run; the others are answered as errors. */
export const TOOL_CALLS_PER_STEP = 10
export const TOOL_CALLS_PER_RUN = 40
/** Characters of over-long arguments the trace keeps. */
const ARGUMENTS_KEPT = 1000

/**
 * How many of a run's tool calls are made, and which: at most TOOL_CALLS_PER_STEP of one
 * answer and TOOL_CALLS_PER_RUN in all, and none whose arguments are over
 * ARGUMENT_CHARACTERS (`max_steps` counts model calls, so one answer of 500 calls used to make
 * 500 MCP calls, and a 20 MB argument was forwarded and stored). A call over a limit is not
 * made: the model reads why, as the call's error, and may ask again with less.
 */
export function toolCallLimits(perStep = TOOL_CALLS_PER_STEP, perRun = TOOL_CALLS_PER_RUN) {
  let made = 0
  return {
    /** Why the call at `index` of its answer is not made, or null when it may be (and is then counted). */
    refusal(index: number, call: ToolCall): string | null {
      if (index >= perStep) return `not run: at most ${perStep} tool calls of one answer are run; ask for fewer at once`
      if (made >= perRun) return `not run: this run has made its ${perRun} tool calls; answer with what you have`
      if (call.function.arguments.length > ARGUMENT_CHARACTERS) return `not run: its arguments are over ${ARGUMENT_CHARACTERS} characters`
      made++
      return null
    },
  }
}

/** A call as it is sent back to the model and kept in the trace: over-long arguments are not repeated. */
export function keptArguments(call: ToolCall, forTrace: boolean): string {
  const text = call.function.arguments
  if (text.length <= ARGUMENT_CHARACTERS) return text
  return forTrace ? `${text.slice(0, ARGUMENTS_KEPT)}… [cut: over ${ARGUMENT_CHARACTERS} characters]` : '{}'
}
