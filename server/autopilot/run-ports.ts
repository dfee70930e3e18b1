import type { StoredLlmSettings } from '../llm/stored-llm-settings.ts'
import { ApiError } from '../http/api-error.ts'
import { answerLimits } from '../llm/answer-limits.ts'
import { callModel } from '../llm/call-model.ts'
import { classifyModelFailure, watchedFetch } from '../llm/classify-failure.ts'
import type { McpService } from '../mcp/mcp-service.ts'
import { pinnedFetch } from '../mcp/pinned-fetch.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import type { AutopilotRunRequest, AutopilotPorts, OfferedTool } from './run-autopilot.ts'

export interface RunPortsOptions {
  settings: StoredLlmSettings
  workspaceId: string
  chatbotId: string
  /** The agent state's `tools`: the integrations it may use and its own `allow` for each. */
  stateTools: { integration_id: string; allow?: string[] }[]
  mcp: Pick<McpService, 'tools' | 'call'>
  /** The integration's name (its tools' prefix), or null when it is gone. */
  integrationName: (workspaceId: string, chatbotId: string, integrationId: string) => Promise<string | null>
  outbound: Pick<OutboundUrlPolicy, 'resolveAndCheck'>
  timeoutMs: number
  /** Ends the run: a person took over, or its deadline passed. */
  signal: AbortSignal
  sleep: (ms: number) => Promise<void>
  /** Told when a model call begins and of each text fragment it streams. */
  draft?: { begin(): void; text(fragment: string): void }
  /** Extra trusted certificates (tests). */
  ca?: string
}

export type RunPorts = AutopilotPorts & { toolSources(): Promise<AutopilotRunRequest['tools']> }

/**
 * The world as one run sees it: the chatbot's model over the outbound-address policy's pinned
 * fetch (the base URL is checked again at every call, so a DNS answer changed since the PATCH
 * cannot reach a private address), and the MCP tools through Parley's MCP service, which
 * applies the integration's allow and deny on every call. The state's own `allow` is applied
 * here too, whatever the model asks for: a tool the state does not offer is never called.
 */
export function runPorts(options: RunPortsOptions): RunPorts {
  const { settings, workspaceId, chatbotId, stateTools, mcp, signal } = options

  function stateAllows(integrationId: string, tool: string): boolean {
    const source = stateTools.find((candidate) => candidate.integration_id === integrationId)
    return source !== undefined && (source.allow === undefined || source.allow.includes(tool))
  }

  return {
    async callModel(body, onText) {
      options.draft?.begin()
      const watched = watchedFetch(pinnedFetch({ policy: options.outbound, ca: options.ca, note: {} }))
      const outcome = await callModel({ baseUrl: settings.base_url, apiKey: settings.api_key }, body, {
        fetch: watched.fetch,
        timeoutMs: options.timeoutMs,
        deadlineMs: settings.call_deadline_ms,
        limits: answerLimits(body.max_tokens ?? settings.max_tokens),
        signal,
        onText: (fragment) => {
          options.draft?.text(fragment)
          onText?.(fragment)
        },
      })
      if (outcome.kind === 'answer') return outcome
      // The team is told why, in Parley's words (the provider's text can quote the request).
      const endpoint = { baseUrl: settings.base_url, model: body.model, hasKey: Boolean(settings.api_key) }
      return { ...outcome, failure: classifyModelFailure({ outcome, note: { ...watched.note, aborted: watched.note.aborted && !signal.aborted }, endpoint, timeoutMs: options.timeoutMs }) }
    },

    async listTools(integrationId): Promise<OfferedTool[]> {
      const { tools } = await mcp.tools(workspaceId, chatbotId, integrationId)
      return tools
        .filter((tool) => tool.allowed && stateAllows(integrationId, tool.name))
        .map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema }))
    },

    async callTool(integrationId, tool, args) {
      if (!stateAllows(integrationId, tool)) throw new Error(`the tool "${tool}" is not offered in this state`)
      if (signal.aborted) throw new Error('the run was stopped')
      try {
        // The run's end does not wait for a slow tool (its own timeout may be minutes away).
        const result = await Promise.race([mcp.call(workspaceId, chatbotId, integrationId, tool, args), stoppedBy(signal)])
        const text = result.content
          .map((block) => (block.type === 'text' && typeof block.text === 'string' ? block.text : JSON.stringify(block)))
          .join('\n')
        const shown = text === '' && result.structured_content != null ? JSON.stringify(result.structured_content) : text
        return { text: shown, isError: result.is_error }
      } catch (error) {
        throw new Error(error instanceof ApiError ? `${error.code}: ${error.detail}` : (error as Error).message)
      }
    },

    sleep: options.sleep,

    /** The state's integrations that still exist, named for the tools' prefixes. */
    toolSources() {
      return Promise.all(
        stateTools.map(async (source) => ({
          integrationId: source.integration_id,
          integrationName: (await options.integrationName(workspaceId, chatbotId, source.integration_id)) ?? 'gone',
          ...(source.allow ? { allow: source.allow } : {}),
        })),
      )
    },
  }
}

/** Rejects once the signal aborts, with its reason. */
function stoppedBy(signal: AbortSignal): Promise<never> {
  return new Promise((_, reject) => {
    const stop = () => reject(signal.reason instanceof Error ? signal.reason : new Error('the run was stopped'))
    if (signal.aborted) stop()
    else signal.addEventListener('abort', stop, { once: true })
  })
}
