import { readLlmSettings } from '../chatbots/model-settings.ts'
import type { ContactStore } from '../conversations/contact-store.ts'
import type { MessageStore } from '../conversations/message-store.ts'
import type { ConversationService, FlowSnapshots, TurnWriter } from '../conversations/service.ts'
import { answeredNow } from '../db/answered-now.ts'
import type { Units } from '../db/units.ts'
import type { ConversationState } from '../engine/model.ts'
import { renderTemplate } from '../engine/render-template.ts'
import { AGENT_DEFAULTS, type ConversationFlow } from '../flow-language/conversation-flow-schema.ts'
import type { Clock } from '../support/clock.ts'
import type { ConversationRef, EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import { newId } from '../support/new-id.ts'
import { modelHistory } from './model-history.ts'
import { type RunPorts, type RunPortsOptions, runPorts } from './run-ports.ts'
import { type AutopilotRunOutcome, runAutopilot } from './run-autopilot.ts'
import type { FinishedRun, PendingRun, RunStore, TraceRow } from './run-store.ts'
import { workspaceSlots } from './workspace-slots.ts'
import { flowContact } from '../conversations/contact-details.ts'

export interface AutopilotTuning {
  /** Runs at once per workspace; more wait their turn (default 4). */
  runsPerWorkspace?: number
  /** Until a model's answer starts, and between two streamed chunks (default 60 s). */
  modelTimeoutMs?: number
  /** The wait before a retried model call (tests shorten it). */
  sleep?: (ms: number) => Promise<void>
}

type RunStores = { agentRuns: RunStore }

export interface AutopilotRunnerDeps {
  /** Reads outside a unit; a dropped run's end through one (docs/architecture.md, "The store seam"). */
  stores: RunStores
  units: Units<RunStores>
  messages: MessageStore
  contacts: ContactStore
  snapshots: FlowSnapshots
  /** The model endpoint and the MCP tools, as the server reaches them. */
  ports: Pick<RunPortsOptions, 'mcp' | 'integrationName' | 'outbound' | 'ca'>
  events: EventBus
  now: Clock
  logger: Logger
  tuning?: AutopilotTuning
}

type AgentSettings = NonNullable<ConversationFlow['states'][string]['agent']>

/** How long the run waited for its turn (after the visitor's message was stored) and how long it worked. */
interface RunTiming {
  waited_ms: number
  duration_ms: number
}

interface Working {
  /** Set when a person took over: the run's answer is dropped whatever it is. */
  takenOver: boolean
  abort: AbortController
  /** Another run was recorded while this one worked: look again when it ends. */
  again: boolean
}

export type AutopilotRunner = ReturnType<typeof autopilotRunner>

/** How long a model call may wait for its answer to start, and between two streamed chunks. */
export const DEFAULT_MODEL_TIMEOUT_MS = 60_000

const abortable = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve()
    const timer = setTimeout(resolve, ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

/**
 * Runs the LLM agent states of conversations, outside the request that stored the visitor's
 * message: the conversation service's turn records a pending run in its own write unit (the
 * `turnWriter` here); the run starts right after that unit is written, while the batch
 * commits, one per conversation at a time (runs recorded meanwhile are answered together by
 * the next), at most `runsPerWorkspace` per workspace. A run's end is written in one unit with
 * its token counts and trace (the answer or the resumed engine's messages, or nothing when a
 * person took over), only while its pending row exists, and committed at once. Pending runs
 * are run again at start, so a crash costs a repeated run, never a lost or doubled answer.
 */
export function autopilotRunner(deps: AutopilotRunnerDeps) {
  const { stores, units, messages, contacts, snapshots, events, now, logger, tuning = {} } = deps
  const store = stores.agentRuns
  const slots = workspaceSlots(tuning.runsPerWorkspace ?? 4)
  const modelTimeoutMs = tuning.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS
  const working = new Map<string, Working>()
  const underWay = new Set<Promise<void>>()
  let lifecycle: ConversationService | null = null
  let closing = false

  const turnWriter: TurnWriter = {
    writesFor(turn) {
      const asked = turn.engineEvents.findLast((event) => event.type === 'agent_run')
      if (!asked || asked.type !== 'agent_run' || turn.conversation.status !== 'bot') return null
      const created_at = turn.messages.findLast((message) => message.role === 'visitor')?.created_at ?? now()
      const run: PendingRun = { id: newId(), conversation_id: turn.conversation.id, chatbot_id: turn.conversation.chatbot_id, state: asked.state, created_at }
      return () => {
        // Inside the turn's synchronous write: the SQLite store has written it by now (answered-now.ts).
        answeredNow(store.insert(run))
        // The run starts once the turn's unit is written (a microtask: the rest of the unit
        // first), without waiting for the group commit: the model's call goes out meanwhile,
        // reading the turn through the same connection. The run's end is written in that
        // batch or a later one, and only while its pending row exists (a rolled-back batch
        // took the row with it), so it is never stored or delivered without the turn.
        queueMicrotask(() => kick(run.conversation_id))
      }
    },
  }

  const stopListening = [
    // A person taking over wins: the run under way is stopped and its answer dropped.
    events.on('conversation.status', ({ conversation, status }) => {
      const work = working.get(conversation.id)
      if (status === 'bot' || !work) return
      work.takenOver = true
      work.abort.abort()
    }),
  ]

  function kick(conversationId: string): void {
    if (closing || !lifecycle) return
    const work = working.get(conversationId)
    if (work) {
      work.again = true
      return
    }
    const fresh: Working = { takenOver: false, abort: new AbortController(), again: true }
    working.set(conversationId, fresh)
    const done = (async () => {
      try {
        while (fresh.again && !closing) {
          fresh.again = false
          await runOnce(conversationId, fresh)
          if (fresh.abort.signal.aborted && !closing) fresh.abort = new AbortController()
          fresh.takenOver = false
        }
      } catch (error) {
        logger.error('agent run failed unexpectedly', { conversation_id: conversationId, error: String(error) })
      } finally {
        working.delete(conversationId)
      }
    })()
    underWay.add(done)
    void done.finally(() => underWay.delete(done))
  }

  /** Drops the runs without an answer, keeping what they cost and did. */
  async function drop(conversationId: string, runs: PendingRun[], reason: string, outcome?: AutopilotRunOutcome, timing?: RunTiming): Promise<void> {
    // A conversation deleted meanwhile (its chatbot or flow removed) took its runs with it; a
    // trace row for it would fail its foreign key and roll back the whole batch.
    if (!lifecycle?.get(conversationId)) return
    const ended = endOf(conversationId, runs, { status: 'dropped', outcome: reason, at: now(), ...(timing ? { timing } : {}) }, outcome)
    await units.conversationUnit(conversationId, (tx) => tx.agentRuns.recordEnd(ended.runs, ended.trace))
  }

  /** The runs' rows as they end: the lead run (the newest) carries the outcome, usage and trace. */
  function endOf(
    conversationId: string,
    runs: PendingRun[],
    end: { status: 'done' | 'dropped'; outcome: string; at: string; messageId?: string; reason?: string; timing?: RunTiming },
    outcome?: AutopilotRunOutcome,
  ): { runs: FinishedRun[]; trace: TraceRow[] } {
    const lead = runs.at(-1) as PendingRun
    const usage = { model_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
    for (const entry of outcome?.trace ?? []) {
      if (entry.kind !== 'model') continue
      usage.model_calls++
      usage.prompt_tokens += entry.usage?.prompt_tokens ?? 0
      usage.completion_tokens += entry.usage?.completion_tokens ?? 0
      usage.total_tokens += entry.usage?.total_tokens ?? 0
    }
    const finished = runs.map((run): FinishedRun => {
      const isLead = run === lead
      const counts = isLead ? usage : { model_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }
      // A failure's reason goes with the run that failed (the desk's timeline shows it, by a trigger).
      const failure = isLead && end.status === 'done' && outcome?.kind === 'failed' ? outcome.failure : null
      return { id: run.id, status: isLead ? end.status : end.status === 'done' ? 'merged' : 'dropped', outcome: end.outcome, finished_at: end.at, runs: 1, ...counts, failure }
    })
    const rows: TraceRow[] = (outcome?.trace ?? []).map(({ kind, ...detail }) => ({
      id: newId(),
      conversation_id: conversationId,
      run_id: lead.id,
      kind,
      detail: JSON.stringify(detail),
      created_at: end.at,
    }))
    const summary = {
      status: end.status,
      outcome: end.outcome,
      ...(end.reason ? { reason: end.reason } : {}),
      ...(outcome?.kind === 'failed' ? { failure: outcome.failure } : {}),
      ...(end.messageId ? { message_id: end.messageId } : {}),
      answered_runs: runs.map((run) => run.id),
      ...end.timing,
      ...usage,
    }
    rows.push({ id: newId(), conversation_id: conversationId, run_id: lead.id, kind: 'run', detail: JSON.stringify(summary), created_at: end.at })
    return { runs: finished, trace: rows }
  }

  /** The runs' end, written inside the conversation's synchronous turn (agentRunEnded's unit): the SQLite store has written it by now. */
  function writeEnd(...args: Parameters<typeof endOf>): void {
    const ended = endOf(...args)
    answeredNow(store.recordEnd(ended.runs, ended.trace))
  }

  async function runOnce(conversationId: string, work: Working): Promise<void> {
    const oldest = (await store.pendingOf(conversationId))[0]
    if (!oldest) return
    const owner = await store.chatbot(oldest.chatbot_id)
    if (!owner) return
    await slots.acquire(owner.workspace_id)
    let typing: ConversationRef | null = null
    let draft: { id: string } | null = null
    /** The run's end was written with the turn: someone waits for its commit. */
    let written = false
    const started = performance.now()
    try {
      if (closing) return
      // Read again once the slot is ours: runs recorded while waiting are answered too.
      const runs = await store.pendingOf(conversationId)
      // The model settings as they are now, not as they were when the run was queued.
      const chatbot = await store.chatbot(oldest.chatbot_id)
      const conversation = lifecycle?.get(conversationId)
      if (runs.length === 0 || !conversation || !chatbot) return
      const state = conversation.state ? (JSON.parse(conversation.state) as ConversationState) : null
      const snapshot = conversation.flow_id && conversation.flow_version !== null ? snapshots.version(conversation.flow_id, conversation.flow_version) : null
      const agent = state ? snapshot?.definition.states[state.state]?.agent : undefined
      if (work.takenOver || conversation.status !== 'bot') return await drop(conversationId, runs, 'a person took over')
      if (!state || state.waiting !== 'agent' || !agent) return await drop(conversationId, runs, 'the flow left the agent state')

      typing = conversation
      events.emit('conversation.typing', { conversation, active: true, from: 'bot' })
      const settings = readLlmSettings(chatbot.llm)
      const showDraft = {
        begin() {
          if (!draft) return
          events.emit('conversation.draft', { conversation, message_id: draft.id, phase: 'dropped' })
          draft = null
          // The text was a preamble to tool calls: the bot is still working.
          events.emit('conversation.typing', { conversation, active: true, from: 'bot' })
        },
        text(fragment: string) {
          if (!draft) {
            draft = { id: newId() }
            events.emit('conversation.draft', { conversation, message_id: draft.id, phase: 'started' })
          }
          events.emit('conversation.draft', { conversation, message_id: draft.id, phase: 'delta', text: fragment })
        },
      }
      let outcome: AutopilotRunOutcome
      if (!settings) {
        const reason = 'the chatbot has no model set: set one on the Integrations screen (LLM) or with PATCH /chatbots/{id}'
        outcome = { kind: 'failed', reason, failure: { kind: 'no_model', message: reason, http_status: null }, trace: [] }
      } else {
        // A run ends by its deadline whatever its model and tools do, and frees its slot.
        const deadline = new AbortController()
        const deadlineTimer = setTimeout(() => deadline.abort(new Error(`the run passed its deadline of ${settings.run_deadline_ms} ms`)), settings.run_deadline_ms)
        const stop = AbortSignal.any([work.abort.signal, deadline.signal])
        const ports: RunPorts = runPorts({
          ...deps.ports,
          settings,
          workspaceId: chatbot.workspace_id,
          chatbotId: conversation.chatbot_id,
          stateTools: agent.tools ?? [],
          timeoutMs: modelTimeoutMs,
          signal: stop,
          sleep: tuning.sleep ?? ((ms) => abortable(ms, stop)),
          draft: showDraft,
        })
        const keep = agent.history ?? AGENT_DEFAULTS.history
        const history = modelHistory(messages.latest(conversationId, keep + 50).messages, keep, (runs[0] as PendingRun).created_at)
        const contact = contacts.get(conversation.contact_id)
        const details = flowContact(contact?.details ?? {}, contact?.locale ?? null)
        outcome = await runAutopilot(
          {
            model: agent.model ?? settings.model,
            temperature: agent.temperature ?? settings.temperature,
            instructions: renderTemplate(agent.instructions, { variables: state.variables, contact: details }),
            visitorLocale: contact?.locale ?? null,
            history,
            tools: await ports.toolSources(),
            exits: exitOffers(agent, snapshot?.definition),
            maxSteps: agent.max_steps ?? AGENT_DEFAULTS.max_steps,
            maxTokens: agent.max_tokens ?? settings.max_tokens,
            signal: stop,
            stream: true,
          },
          ports,
        ).finally(() => clearTimeout(deadlineTimer))
      }
      // A shutdown leaves the runs pending: the next start runs them again.
      if (closing) return
      const timing = {
        waited_ms: Math.max(0, Date.parse(now()) - Date.parse((runs[0] as PendingRun).created_at) - Math.round(performance.now() - started)),
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      }
      events.emit('autopilot.run_ended', { outcome: outcome.kind, durationMs: timing.duration_ms, ...tokensOf(outcome) })
      // A draft that became the stored answer ends with it; any other is dropped below.
      const ended = await finish(conversationId, state.state, runs, outcome, work, draft, timing)
      written = ended.written
      if (ended.draftIsAnswer) draft = null
    } finally {
      // The visitor is waiting for the answer: its commit is queued now (it runs, and the answer
      // is announced, right after this code, once typing has stopped), not after the next round of I/O.
      if (written) units.soon?.()
      if (draft && typing) events.emit('conversation.draft', { conversation: typing, message_id: (draft as { id: string }).id, phase: 'dropped' })
      if (typing) events.emit('conversation.typing', { conversation: typing, active: false, from: 'bot' })
      slots.release(owner.workspace_id)
    }
  }

  async function finish(
    conversationId: string,
    stateName: string,
    runs: PendingRun[],
    outcome: AutopilotRunOutcome,
    work: Working,
    draft: { id: string } | null,
    timing: RunTiming,
  ): Promise<{ written: boolean; draftIsAnswer: boolean }> {
    const none = { written: false, draftIsAnswer: false }
    const lead = runs.at(-1) as PendingRun
    // Idempotent by run id: a run already ended (by another process's start) is not answered twice.
    if (!(await store.isPending(lead.id))) return none
    if (work.takenOver) {
      await drop(conversationId, runs, 'a person took over', outcome, timing)
      return none
    }
    const at = now()
    if (outcome.kind === 'answer') {
      // The answer keeps its draft's id unless a message was stored after the draft began:
      // ids follow the order messages are stored in, so it then takes a new one.
      const newest = messages.latest(conversationId, 1).messages[0]?.id ?? ''
      const answerId = draft && draft.id > newest ? draft.id : newId()
      const stored = lifecycle?.agentRunEnded(conversationId, stateName, { kind: 'answer', text: outcome.text, answerId }, () =>
        writeEnd(conversationId, runs, { status: 'done', outcome: 'answer', at, messageId: answerId, timing }, outcome),
      )
      if (!stored) {
        await drop(conversationId, runs, 'the conversation moved on during the run', outcome, timing)
        return none
      }
      return { written: true, draftIsAnswer: answerId === draft?.id }
    }
    const input = outcome.kind === 'exit' ? { kind: 'agent_exit' as const, exit: outcome.exit, values: outcome.values } : { kind: 'agent_failed' as const }
    const end = outcome.kind === 'exit' ? { outcome: 'exit', at, timing } : { outcome: 'failed', reason: outcome.reason, at, timing }
    const stored = lifecycle?.agentRunEnded(conversationId, stateName, input, () => writeEnd(conversationId, runs, { status: 'done', ...end }, outcome))
    if (!stored) await drop(conversationId, runs, 'the conversation moved on during the run', outcome, timing)
    else {
      const conversation = lifecycle?.get(conversationId)
      // Told once the run's end is committed (a unit after it commits with it or later; not at all if it is rolled back).
      if (outcome.kind === 'failed' && conversation) {
        units.unit(async () => {}).then(
          () => events.emit('agent.failed', { conversation, failure: outcome.failure }),
          () => {},
        )
      }
    }
    if (outcome.kind === 'failed') logger.warn('agent run failed', { conversation_id: conversationId, reason: outcome.reason })
    return { written: Boolean(stored), draftIsAnswer: false }
  }

  return {
    turnWriter,

    /** Begins, once the conversation service exists: what an earlier process left pending runs now. */
    start(conversations: ConversationService): void {
      lifecycle = conversations
      store.pendingConversations().then(
        (conversationIds) => {
          for (const conversationId of conversationIds) kick(conversationId)
        },
        (error: unknown) => logger.error('pending agent runs not read', { error: String(error) }),
      )
    },

    /** Runs under way or waiting for a slot (tests and the bench). */
    busy: () => working.size,

    /** Stops the runs under way; they stay pending for the next start. */
    async close(): Promise<void> {
      closing = true
      for (const stop of stopListening) stop()
      for (const work of working.values()) work.abort.abort()
      await Promise.race([Promise.allSettled([...underWay]), Bun.sleep(5_000)])
    },
  }
}

/** The state's exits as the model is offered them: each captured variable typed by its declaration. */
function exitOffers(agent: AgentSettings, flow: ConversationFlow | undefined) {
  return agent.exits.map((exit) => ({
    when: exit.when,
    to: exit.to,
    capture: (exit.capture ?? []).map((name) => ({ name, type: flow?.variables?.[name]?.type ?? 'string' })),
  }))
}

/** The tokens the model reported over a run's calls. */
function tokensOf(outcome: AutopilotRunOutcome): { promptTokens: number; completionTokens: number } {
  let promptTokens = 0
  let completionTokens = 0
  for (const entry of outcome.trace) {
    if (entry.kind !== 'model') continue
    promptTokens += entry.usage?.prompt_tokens ?? 0
    completionTokens += entry.usage?.completion_tokens ?? 0
  }
  return { promptTokens, completionTokens }
}
