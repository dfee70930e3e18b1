import { readLlmSettings } from '../chatbots/model-settings.ts'
import { renderTemplate } from '../engine/render-template.ts'
import type { AgentSettings, DraftAgent, DraftAgentRequest, DraftAgentResult } from '../flows/draft-run.ts'
import { AGENT_DEFAULTS } from '../flow-language/conversation-flow-schema.ts'
import type { ChatMessage } from '../llm/wire-format.ts'
import type { Logger } from '../support/logger.ts'
import { type RunPortsOptions, runPorts } from './run-ports.ts'
import { runAutopilot } from './run-autopilot.ts'
import type { ChatbotOfRun } from './run-store.ts'

export interface DraftAutopilotDeps {
  /** The chatbot's workspace and model settings, as the live runs read them. */
  chatbot(chatbotId: string): Promise<ChatbotOfRun | undefined>
  ports: Pick<RunPortsOptions, 'mcp' | 'integrationName' | 'outbound' | 'ca'>
  logger: Logger
  tuning?: { modelTimeoutMs?: number; sleep?: (ms: number) => Promise<void> }
}

/** A test run may take this long in all (retries and tool calls included) before it is stopped. */
const DRAFT_RUN_LIMIT_MS = 120_000

/**
 * An agent state of a draft, tried from the console's test chat: the same run as a live
 * conversation's (the chatbot's model, the state's instructions, MCP tools and exits), on the
 * history the test chat sends instead of stored messages. Nothing is stored, no socket is told,
 * and the result is marked as a test; the model is really called, so it costs its tokens.
 */
export function draftAutopilot(deps: DraftAutopilotDeps): DraftAgent {
  return {
    async answer(request: DraftAgentRequest): Promise<DraftAgentResult> {
      const { agent, workspaceId, chatbotId } = request
      const chatbot = await deps.chatbot(chatbotId)
      const settings = chatbot && chatbot.workspace_id === workspaceId ? readLlmSettings(chatbot.llm) : null
      if (!settings) {
        const reason = 'the chatbot has no model set (its LLM settings)'
        return { outcome: { kind: 'failed', reason, trace: [] }, model: null }
      }
      const signal = AbortSignal.timeout(DRAFT_RUN_LIMIT_MS)
      const sleep = deps.tuning?.sleep ?? ((ms: number) => Bun.sleep(Math.min(ms, 5_000)))
      const ports = runPorts({
        ...deps.ports,
        settings,
        workspaceId,
        chatbotId,
        stateTools: agent.tools ?? [],
        timeoutMs: deps.tuning?.modelTimeoutMs ?? 60_000,
        signal,
        sleep,
      })
      const model = agent.model ?? settings.model
      const keep = agent.history ?? AGENT_DEFAULTS.history
      const history: ChatMessage[] = request.history
        .slice(Math.max(0, request.history.length - keep))
        .map((line) => (line.role === 'visitor' ? { role: 'user', content: line.text } : { role: 'assistant', content: line.text }))
      const outcome = await runAutopilot(
        {
          model,
          temperature: agent.temperature ?? settings.temperature,
          instructions: renderTemplate(agent.instructions, { variables: request.variables, contact: request.contact }),
          // A test contact given a locale is told to the model as a visitor's would be.
          visitorLocale: typeof request.contact.locale === 'string' ? request.contact.locale : null,
          history: [...history, { role: 'user', content: request.said }],
          tools: await ports.toolSources(),
          exits: exitOffers(agent, request.variableTypes),
          maxSteps: agent.max_steps ?? AGENT_DEFAULTS.max_steps,
        },
        ports,
      )
      deps.logger.info('draft agent run (test)', { chatbot_id: chatbotId, state: request.state, outcome: outcome.kind })
      return { outcome, model }
    },
  }
}

function exitOffers(agent: AgentSettings, types: Record<string, 'string' | 'number' | 'boolean'>) {
  return agent.exits.map((exit) => ({
    when: exit.when,
    to: exit.to,
    capture: (exit.capture ?? []).map((name) => ({ name, type: types[name] ?? 'string' })),
  }))
}
