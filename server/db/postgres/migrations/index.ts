import type { PostgresMigration } from '../migration.ts'
import { foundation } from './0001_foundation.ts'
import { integrations } from './0002_integrations.ts'
import { flows } from './0003_flows.ts'
import { conversations } from './0004_conversations.ts'
import { instanceSettings } from './0005_instance_settings.ts'
import { outbox } from './0006_outbox.ts'
import { chatapp } from './0007_chatapp.ts'
import { compactMessageKeys } from './0008_compact_message_keys.ts'
import { messagesInInsertionOrder } from './0009_messages_in_insertion_order.ts'
import { conversationListByStatus } from './0010_conversation_list_by_status.ts'
import { mcpIntegrations } from './0011_mcp_integrations.ts'
import { people } from './0012_people.ts'
import { chatbotModelSettings } from './0013_chatbot_model_settings.ts'
import { mcpOauth } from './0014_mcp_oauth.ts'
import { agentRuns } from './0015_agent_runs.ts'
import { widgetFeedback } from './0016_widget_feedback.ts'
import { desk } from './0017_desk.ts'
import { apiKeyLastUsed } from './0018_api_key_last_used.ts'
import { attachments } from './0019_attachments.ts'
import { agentRunsFinishedByChatbot } from './0020_agent_runs_finished_by_chatbot.ts'
import { deskWaitingAndRatings } from './0021_desk_waiting_and_ratings.ts'
import { visitorAddress } from './0023_visitor_address.ts'
import { deskSearchByConversation } from './0024_desk_search_by_conversation.ts'
import { flowSteps } from './0025_flow_steps.ts'
import { modelFailuresAndToolSafety } from './0026_model_failures_and_tool_safety.ts'
import { contactLocale } from './0027_contact_locale.ts'
import { lighterTurnRows } from './0029_lighter_turn_rows.ts'

/**
 * Every PostgreSQL migration, oldest first: one twin per SQLite migration, same id and name
 * (test/db/postgres/migration-track.test.ts holds them together). Append only.
 */
export const postgresMigrations: readonly PostgresMigration[] = [foundation, integrations, flows, conversations, instanceSettings, outbox, chatapp, compactMessageKeys, messagesInInsertionOrder, conversationListByStatus, mcpIntegrations, people, chatbotModelSettings, mcpOauth, agentRuns, widgetFeedback, desk, apiKeyLastUsed, attachments, agentRunsFinishedByChatbot, deskWaitingAndRatings, visitorAddress, deskSearchByConversation, flowSteps, modelFailuresAndToolSafety, contactLocale, lighterTurnRows]
