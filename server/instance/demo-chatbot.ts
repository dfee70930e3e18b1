import type { ChatbotService } from '../chatbots/service.ts'
import type { ConversationFlow } from '../flow-language/conversation-flow-schema.ts'
import type { FlowService } from '../flows/service.ts'
import type { Units } from '../db/units.ts'
import type { IntegrationService } from '../integrations/service.ts'
import type { InstanceStore } from './store.ts'

const DEMO_CHATBOT = 'demo_chatbot_id'

/** A small tour of what a conversation flow can do, so a newcomer can talk to a bot at once. */
export const DEMO_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  variables: { email: { type: 'string' } },
  states: {
    welcome: {
      say: [
        { text: 'This bot runs on a published conversation flow: a state machine you define through the API.' },
        {
          text: 'What would you like to try?',
          buttons: [
            { id: 'tour', title: 'What can you do?' },
            { id: 'email', title: 'Leave my e-mail' },
            { id: 'human', title: 'Talk to a person' },
          ],
        },
      ],
      on: [
        { button: 'tour', to: 'tour' },
        { button: 'email', to: 'ask_email' },
        { button: 'human', to: 'human' },
        { match: '(?i)\\b(hi|hello|hey)\\b', to: 'hello' },
        { to: 'unknown' },
      ],
    },
    hello: { say: [{ text: 'Hello to you too!' }], next: 'welcome' },
    tour: {
      say: [
        { text: 'Buttons, lists, captures with checks (e-mail, phone, number), regex matches, handoff to people, and variables filled into texts.' },
        { text: 'Agents answer through the conversations API; their messages arrive here live.' },
      ],
      next: 'welcome',
    },
    ask_email: {
      say: [{ text: 'What is your e-mail address?' }],
      capture: { var: 'email', as: 'email', retry: 'That does not look like a real e-mail address. Try again?' },
      next: 'thanks',
    },
    thanks: { say: [{ text: 'Thanks! We would write to {{email}}.' }], next: 'welcome' },
    human: { handoff: { text: 'A person will answer here. (Post to the conversations API to answer as one.)', resume: 'welcome' } },
    unknown: { say: [{ text: 'I only understand the buttons, for now.' }], next: 'welcome' },
  },
}

interface Deps {
  chatbots: ChatbotService
  flows: FlowService
  integrations: IntegrationService
  /** Reads outside a unit; writes through one (docs/architecture.md, "The store seam"). */
  instance: InstanceStore
  units: Units<{ instance: InstanceStore }>
}

export type DemoChatbot = ReturnType<typeof demoChatbot>

/** The demo chatbot made on first start: a published flow and a web integration open to every site. */
export function demoChatbot({ chatbots, flows, integrations, instance, units }: Deps) {
  return {
    async create(workspaceId: string): Promise<{ chatbotId: string; widgetKey: string }> {
      const bot = chatbots.create(workspaceId, { name: 'Demo bot' })
      const flow = await flows.create(workspaceId, bot.id, { name: 'Demo tour', type: 'conversation', flow: DEMO_FLOW })
      await flows.publish(workspaceId, bot.id, flow.id)
      const web = await integrations.web.create(workspaceId, bot.id, {
        name: 'Demo page',
        greeting_message: 'Hi! I am the demo bot of this Parley server.',
        widget_config: { bot_display_name: 'Parley demo', bot_avatar_icon: 'sparkle' },
      })
      await units.unit((tx) => tx.instance.set(DEMO_CHATBOT, bot.id))
      return { chatbotId: bot.id, widgetKey: web.config.widget_key }
    },

    /** The demo's widget key while the demo chatbot and its active web integration exist. */
    async widgetKey(): Promise<string | null> {
      const chatbotId = await instance.get(DEMO_CHATBOT)
      return chatbotId ? integrations.activeWidgetKeyOf(chatbotId) : null
    },
  }
}
