import type { Static } from 'elysia'
import type { ConversationState, EngineInput, EngineResult, Scalar } from '../engine/model.ts'
import { runEngine } from '../engine/run-engine.ts'
import { unprocessable } from '../http/api-error.ts'
import type { Agent, ConversationFlow } from '../flow-language/conversation-flow-schema.ts'
import type { DraftRun, DraftRunResult } from './draft-run-model.ts'
import type { Clock } from '../support/clock.ts'
import type { FlowService } from './service.ts'

export type AgentSettings = Static<typeof Agent>

export interface DraftAgentRequest {
  workspaceId: string
  chatbotId: string
  state: string
  agent: AgentSettings
  /** The test chat so far, oldest first, as the tester sent it. */
  history: DraftRun['history'] & {}
  /** The visitor's message the agent answers. */
  said: string
  variables: Record<string, Scalar>
  variableTypes: Record<string, 'string' | 'number' | 'boolean'>
  contact: Record<string, Scalar>
}

/** A step of a draft agent's run, as much of it as the test chat reports: the tokens of each model call, the tools called. */
export type DraftTraceStep = { kind: 'model'; usage: { total_tokens: number } | null } | { kind: 'tool'; name: string } | { kind: 'exit' }

/** How a draft agent's run ended (the autopilot's run outcome, declared here so that flows/ does not import autopilot/). */
export type DraftAgentOutcome =
  | { kind: 'answer'; text: string; trace: DraftTraceStep[] }
  | { kind: 'exit'; exit: number; values: Record<string, Scalar>; trace: DraftTraceStep[] }
  | { kind: 'failed'; reason: string; trace: DraftTraceStep[] }

export interface DraftAgentResult {
  outcome: DraftAgentOutcome
  /** The model asked, or null when the chatbot has none. */
  model: string | null
}

/** Runs an agent state of a draft against the chatbot's model (server/autopilot/draft-autopilot.ts). */
export interface DraftAgent {
  answer(request: DraftAgentRequest): Promise<DraftAgentResult>
}

export type DraftRunner = ReturnType<typeof draftRunner>

/**
 * Runs a flow's draft through the real engine, one input at a time, storing nothing: the
 * caller keeps the state between inputs, so the console can try a flow before it is published
 * without a live conversation, a contact or a message being written. Where the engine pauses
 * for an LLM agent, the agent really runs (the chatbot's model and tools, marked as a test)
 * and the engine resumes with its exit or failure, as a live conversation would.
 */
export function draftRunner(flows: Pick<FlowService, 'checkDraft'>, agents: DraftAgent, now: Clock) {
  return {
    async run(workspaceId: string, chatbotId: string, flowId: string, request: DraftRun): Promise<DraftRunResult> {
      const { type, definition, report } = await flows.checkDraft(workspaceId, chatbotId, flowId, request.flow)
      if (type !== 'conversation') {
        throw unprocessable('not_a_conversation_flow', 'only conversation flows run; a meta flow is a WhatsApp Flow JSON document, sent by a conversation flow')
      }
      // The engine runs validated flows only: an unchecked draft could name states that do not exist.
      if (report.errors.length > 0) {
        const count = report.errors.length
        throw unprocessable('flow_invalid', `the draft has ${count} validation error${count === 1 ? '' : 's'}; fix them to run it`, report.errors)
      }
      const flow = definition as ConversationFlow
      const contact = request.contact ?? {}
      const state = request.input.kind === 'start' ? null : request.state
      const context = { contact, now: Date.parse(now()) }
      const result = runEngine(flow, state, request.input, context)
      const asked = result.events.findLast((event) => event.type === 'agent_run')
      const agent = asked ? flow.states[asked.state]?.agent : undefined
      if (!asked || !agent || (request.input.kind !== 'text' && request.input.kind !== 'reply')) return shown(result)

      const said = request.input.kind === 'text' ? request.input.text : request.input.title
      const variableTypes = Object.fromEntries(Object.entries(flow.variables ?? {}).map(([name, declared]) => [name, declared.type]))
      const { outcome, model } = await agents.answer({
        workspaceId,
        chatbotId,
        state: asked.state,
        agent,
        history: request.history ?? [],
        said,
        variables: result.state.variables,
        variableTypes,
        contact,
      })
      const usage = outcome.trace.reduce((sum, entry) => sum + (entry.kind === 'model' ? (entry.usage?.total_tokens ?? 0) : 0), 0)
      const tools = outcome.trace.flatMap((entry) => (entry.kind === 'tool' ? [entry.name] : []))
      const report_ = {
        test: true as const,
        state: asked.state,
        model,
        outcome: outcome.kind,
        ...(outcome.kind === 'failed' ? { reason: outcome.reason } : {}),
        tools,
        total_tokens: usage,
      }
      if (outcome.kind === 'answer') {
        return { ...shown(result), messages: [...result.messages, { kind: 'text', text: outcome.text }], agent: report_ }
      }
      const resume: EngineInput = outcome.kind === 'exit' ? { kind: 'agent_exit', exit: outcome.exit, values: outcome.values } : { kind: 'agent_failed' }
      const resumed = runEngine(flow, result.state, resume, context)
      return {
        state: resumed.state,
        messages: [...result.messages, ...resumed.messages],
        events: [...result.events, ...resumed.events],
        steps: [...result.steps, ...resumed.steps],
        agent: report_,
      }
    },
  }
}

function shown(result: EngineResult): DraftRunResult {
  return { state: result.state satisfies ConversationState, messages: result.messages, events: result.events, steps: result.steps }
}
