import type { Agent } from '../flow-language/conversation-flow-schema.ts'
import type { Static } from 'elysia'
import { enterState, type Run, sayText } from './enter-state.ts'
import type { ConversationState, EngineInput, Scalar } from './model.ts'

type AgentSettings = Static<typeof Agent>

/** Said when the agent fails and its state names no `on_error`; then a person takes over. */
export const AGENT_APOLOGY = 'Sorry, I cannot answer that right now. A person will take over here.'

/**
 * Input while the bot waits in an agent state. A visitor's message is the LLM agent's to
 * answer: the engine pauses (`agent_run`) unless `max_turns` is spent, and the run outside
 * the engine resumes it with the exit the model took or its failure.
 */
export function answerInAgentState(run: Run, state: ConversationState, agent: AgentSettings, input: EngineInput): ConversationState {
  switch (input.kind) {
    case 'text':
    case 'reply': {
      const turns = (state.agent_turns ?? 0) + 1
      if (agent.max_turns !== undefined && agent.on_limit !== undefined && turns > agent.max_turns) {
        run.events.push({ type: 'agent_limit', state: state.state })
        return enterState(run, agent.on_limit, state.state, 'agent/on_limit')
      }
      run.events.push({ type: 'agent_run', state: state.state })
      return { ...state, agent_turns: turns }
    }
    case 'agent_exit': {
      const exit = agent.exits[input.exit]
      if (!exit) return state
      const captured: string[] = []
      for (const name of exit.capture ?? []) {
        const value = fitting(run, name, input.values[name])
        if (value === undefined) continue
        run.variables = { ...run.variables, [name]: value }
        captured.push(name)
      }
      run.events.push({ type: 'agent_exit', state: state.state, to: exit.to, captured })
      return enterState(run, exit.to, state.state, `agent/exits/${input.exit}`)
    }
    case 'agent_failed': {
      run.events.push({ type: 'agent_failed', state: state.state })
      if (agent.on_error !== undefined) return enterState(run, agent.on_error, state.state, 'agent/on_error')
      sayText(run, AGENT_APOLOGY)
      run.events.push({ type: 'handoff', state: state.state })
      return { ...state, status: 'handoff', waiting: null }
    }
    default:
      return state
  }
}

/** The value if it has the declared variable's type; the runner checked it, this is the guard. */
function fitting(run: Run, name: string, value: Scalar | undefined): Scalar | undefined {
  if (value === undefined || !Object.hasOwn(run.flow.variables ?? {}, name)) return undefined
  const declared = run.flow.variables?.[name]?.type
  return typeof value === declared ? value : undefined
}
