import type { Migration } from '../migration.ts'
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
import { widgetFeedback } from './0016_widget_feedback.ts'

/** Every migration, oldest first. Append only: a released migration never changes. */
export const migrations: readonly Migration[] = [foundation, integrations, flows, conversations, instanceSettings, outbox, chatapp, compactMessageKeys, messagesInInsertionOrder, conversationListByStatus, mcpIntegrations, people, chatbotModelSettings, widgetFeedback]
