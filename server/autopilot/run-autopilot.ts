import type { ModelCallOutcome } from '../llm/call-model.ts'
import type { ModelFailure } from '../llm/classify-failure.ts'
import type { ChatMessage, ChatRequestBody, ToolDefinition, Usage } from '../llm/wire-format.ts'
import type { Scalar } from '../engine/model.ts'
import { keptArguments, toolCallLimits } from './tool-call-limits.ts'
import { toolNames } from './tool-names.ts'
import { visitorLanguageLine } from './visitor-language.ts'

/** One tool of an MCP integration, as its catalogue offers it (allow and deny applied). */
export interface OfferedTool {
  name: string
  description: string | null
  input_schema: Record<string, unknown>
}

/** What a run needs from the world; the server wires the LLM client and the MCP service in. */
/** A model call's outcome; a failed one classified for the team (the real port does it). */
export type ClassifiedOutcome = ModelCallOutcome & { failure?: ModelFailure }

export interface AutopilotPorts {
  callModel(body: ChatRequestBody, onText?: (fragment: string) => void): Promise<ClassifiedOutcome>
  listTools(integrationId: string): Promise<OfferedTool[]>
  callTool(integrationId: string, tool: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }>
  /** Waits before a retry (tests shorten it). */
  sleep(ms: number): Promise<void>
}

export interface AutopilotExitOffer {
  when: string
  to: string
  /** The variables the model fills when it takes this exit, with their declared types. */
  capture: { name: string; type: 'string' | 'number' | 'boolean' }[]
}

export interface AutopilotRunRequest {
  model: string
  temperature: number | null
  /** The state's instructions, templates filled. */
  instructions: string
  /** The visitor's language (the contact's locale), told to the model in a system line of its own. */
  visitorLocale?: string | null
  /** The conversation so far, oldest first, already cut to the state's `history`. */
  history: ChatMessage[]
  tools: { integrationId: string; integrationName: string; allow?: string[] }[]
  exits: AutopilotExitOffer[]
  maxSteps: number
  /** Sent as `max_tokens`; what is read of each answer follows from it (llm/answer-limits.ts). */
  maxTokens?: number
  /** Ends the run (its deadline, a person taking over): its reason is the run's. */
  signal?: AbortSignal
  /** Characters of one tool's output the model sees. */
  toolOutputLimit?: number
  stream?: boolean
}

export type TraceEntry =
  | {
      kind: 'model'
      model: string
      finish_reason: string | null
      usage: Usage | null
      latency_ms: number
      /** The text the model wrote, and the functions it called (arguments are in the tool entries). */
      content?: string | null
      tool_calls?: string[]
      error?: string
      /** What of the answer was not kept (over a limit), when part was not. */
      cut?: string
    }
  | { kind: 'tool'; name: string; arguments: string; result: string; is_error: boolean; latency_ms: number }
  | { kind: 'exit'; exit: number; to: string; values: Record<string, Scalar> }

export type AutopilotRunOutcome =
  | { kind: 'answer'; text: string; trace: TraceEntry[] }
  | { kind: 'exit'; exit: number; values: Record<string, Scalar>; trace: TraceEntry[] }
  | { kind: 'failed'; reason: string; failure: ModelFailure; trace: TraceEntry[] }

const MODEL_ATTEMPTS = 3
const LONGEST_RETRY_WAIT_MS = 20_000
const DEFAULT_TOOL_OUTPUT = 20_000

/**
 * One run of an agent state for the visitor's latest message(s): the model is called with the
 * state's instructions, the history, its MCP tools (namespaced per integration) and its exits
 * (offered as functions whose parameters are the captured variables); tool calls are made
 * through the ports (whatever the model asks, only tools the state offers), their output goes
 * back to the model as data, cut to a size; the run ends when the model answers in text, calls
 * an exit, fails, or spends `maxSteps` rounds.
 */
export async function runAutopilot(request: AutopilotRunRequest, ports: AutopilotPorts, onText?: (fragment: string) => void): Promise<AutopilotRunOutcome> {
  const trace: TraceEntry[] = []
  const names = toolNames()
  const functions: ToolDefinition[] = []
  const exitByName = new Map<string, number>()
  request.exits.forEach((exit, index) => {
    const name = names.reserve(`exit_${exit.to}`)
    exitByName.set(name, index)
    functions.push({
      type: 'function',
      function: {
        name,
        description: `Call this when ${exit.when}. It ends your part of the conversation.`,
        parameters: {
          type: 'object',
          properties: Object.fromEntries(exit.capture.map((variable) => [variable.name, { type: variable.type }])),
          required: exit.capture.map((variable) => variable.name),
          additionalProperties: false,
        },
      },
    })
  })
  for (const source of request.tools) {
    let offered: OfferedTool[]
    try {
      offered = await ports.listTools(source.integrationId)
    } catch (error) {
      // A server that cannot be reached takes its tools away for this run, not the answer.
      trace.push({ kind: 'tool', name: `${source.integrationName}__*`, arguments: '', result: `tools unavailable: ${(error as Error).message}`, is_error: true, latency_ms: 0 })
      continue
    }
    for (const tool of offered) {
      if (source.allow && !source.allow.includes(tool.name)) continue
      functions.push({
        type: 'function',
        function: { name: names.forTool(source.integrationName, source.integrationId, tool.name), description: tool.description ?? '', parameters: tool.input_schema },
      })
    }
  }

  const languageLine = visitorLanguageLine(request.visitorLocale)
  const messages: ChatMessage[] = [
    { role: 'system', content: request.instructions },
    ...(languageLine ? [{ role: 'system' as const, content: languageLine }] : []),
    ...request.history,
  ]
  const toolCalls = toolCallLimits()
  const stopped = () => ({ kind: 'failed' as const, reason: stopReason(request.signal), failure: stopFailure(request.signal), trace })
  for (let step = 0; step < request.maxSteps; step++) {
    if (request.signal?.aborted) return stopped()
    const body: ChatRequestBody = {
      model: request.model,
      messages,
      stream: request.stream ?? false,
      ...(request.stream ? { stream_options: { include_usage: true } } : {}),
      ...(request.temperature === null ? {} : { temperature: request.temperature }),
      ...(functions.length > 0 ? { tools: functions, tool_choice: 'auto' as const } : {}),
      ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
    }
    const outcome = await callWithRetries(body, ports, trace, onText, request.signal)
    if (request.signal?.aborted) return stopped()
    if (outcome.kind !== 'answer') {
      return { kind: 'failed', reason: outcome.reason, failure: outcome.failure ?? { kind: 'provider_error', message: 'the model could not be used', http_status: outcome.status ?? null }, trace }
    }
    const { answer } = outcome
    const exitCall = answer.toolCalls.find((call) => exitByName.has(call.function.name))
    if (exitCall) {
      const index = exitByName.get(exitCall.function.name) as number
      const values = exitValues(exitCall.function.arguments, request.exits[index] as AutopilotExitOffer)
      trace.push({ kind: 'exit', exit: index, to: (request.exits[index] as AutopilotExitOffer).to, values })
      return { kind: 'exit', exit: index, values, trace }
    }
    if (answer.toolCalls.length === 0) {
      const text = answer.content?.trim() ?? ''
      if (text) return { kind: 'answer', text, trace }
      if (!answer.cut) return { kind: 'failed', reason: 'the model answered nothing', failure: { kind: 'no_answer', message: 'the model answered nothing', http_status: null }, trace }
      const reason = `the model's answer was cut and nothing of it could be kept: ${answer.cut}`
      return { kind: 'failed', reason, failure: { kind: 'no_answer', message: reason, http_status: null }, trace }
    }
    messages.push({ role: 'assistant', content: answer.content, tool_calls: answer.toolCalls.map((call) => ({ ...call, function: { ...call.function, arguments: keptArguments(call, false) } })) })
    // Every call id is answered (providers refuse one left out), in the order asked.
    for (const [index, call] of answer.toolCalls.entries()) {
      if (request.signal?.aborted) return stopped()
      const refused = toolCalls.refusal(index, call)
      const content = refused
        ? notRun(call.function.name, keptArguments(call, true), refused, trace)
        : await runTool(call.function.name, call.function.arguments, names, ports, trace, request.toolOutputLimit ?? DEFAULT_TOOL_OUTPUT)
      messages.push({ role: 'tool', tool_call_id: call.id, content })
    }
  }
  const reason = `no answer within max_steps (${request.maxSteps}) rounds`
  return { kind: 'failed', reason, failure: { kind: 'no_answer', message: `${reason} of tool calls`, http_status: null }, trace }
}

async function callWithRetries(
  body: ChatRequestBody,
  ports: AutopilotPorts,
  trace: TraceEntry[],
  onText?: (fragment: string) => void,
  signal?: AbortSignal,
): Promise<ClassifiedOutcome> {
  let outcome: ClassifiedOutcome = { kind: 'unavailable', reason: 'not called' }
  for (let attempt = 1; attempt <= MODEL_ATTEMPTS; attempt++) {
    const started = performance.now()
    outcome = await ports.callModel(body, onText)
    const latency = elapsed(started)
    if (outcome.kind === 'answer') {
      const { answer } = outcome
      const calls = answer.toolCalls.map((call) => call.function.name)
      trace.push({
        kind: 'model',
        model: body.model,
        finish_reason: answer.finishReason,
        usage: answer.usage,
        latency_ms: latency,
        content: answer.content,
        ...(calls.length ? { tool_calls: calls } : {}),
        ...(answer.cut ? { cut: answer.cut } : {}),
      })
      return outcome
    }
    trace.push({ kind: 'model', model: body.model, finish_reason: null, usage: null, latency_ms: latency, error: signal?.aborted ? stopReason(signal) : outcome.reason })
    if (outcome.kind === 'refused' || signal?.aborted) return outcome
    if (attempt < MODEL_ATTEMPTS) await ports.sleep(Math.min(outcome.retryAfterMs ?? 1000 * 2 ** (attempt - 1), LONGEST_RETRY_WAIT_MS))
  }
  return outcome
}

async function runTool(
  functionName: string,
  rawArguments: string,
  names: ReturnType<typeof toolNames>,
  ports: AutopilotPorts,
  trace: TraceEntry[],
  limit: number,
): Promise<string> {
  const record = (result: string, isError: boolean, latency = 0) => {
    trace.push({ kind: 'tool', name: functionName, arguments: rawArguments, result, is_error: isError, latency_ms: latency })
    return isError ? `Error: ${result}` : result
  }
  const target = names.tool(functionName)
  if (!target) return record(`there is no tool named ${functionName}; use only the tools offered`, true)
  let args: unknown
  try {
    args = rawArguments.trim() === '' ? {} : JSON.parse(rawArguments)
  } catch {
    return record('the arguments are not valid JSON; send a JSON object', true)
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return record('the arguments must be a JSON object', true)
  const started = performance.now()
  try {
    const result = await ports.callTool(target.integrationId, target.tool, args as Record<string, unknown>)
    const text = result.text.length > limit ? `${result.text.slice(0, limit)}\n[output cut at ${limit} characters]` : result.text
    return record(text, result.isError, elapsed(started))
  } catch (error) {
    // A refused or failed call is the model's to hear about, never the visitor's.
    return record((error as Error).message, true, elapsed(started))
  }
}

/** A call over a limit: recorded, and answered to the model as an error, never made. */
function notRun(functionName: string, shownArguments: string, why: string, trace: TraceEntry[]): string {
  trace.push({ kind: 'tool', name: functionName, arguments: shownArguments, result: why, is_error: true, latency_ms: 0 })
  return `Error: ${why}`
}

/** Why the run was stopped: the reason its signal was aborted with (a deadline says so), else "stopped". */
function stopReason(signal: AbortSignal | undefined): string {
  const reason = signal?.reason
  return reason instanceof Error && reason.name !== 'AbortError' ? reason.message : 'the run was stopped'
}

/** A stopped run, classified: a deadline is a timeout (of the run, its model and tools together). */
function stopFailure(signal: AbortSignal | undefined): ModelFailure {
  const reason = stopReason(signal)
  return { kind: reason.includes('deadline') ? 'timeout' : 'no_answer', message: reason, http_status: null }
}

/** The exit's captured values that have the declared type; anything else is left out. */
function exitValues(rawArguments: string, exit: AutopilotExitOffer): Record<string, Scalar> {
  let parsed: unknown
  try {
    parsed = JSON.parse(rawArguments || '{}')
  } catch {
    return {}
  }
  if (typeof parsed !== 'object' || parsed === null) return {}
  const values: Record<string, Scalar> = {}
  for (const { name, type } of exit.capture) {
    const value = (parsed as Record<string, unknown>)[name]
    if (typeof value === type) values[name] = value as Scalar
  }
  return values
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10
}
