import type { StateKind } from './flow-model.ts'
import type { Json } from './json.ts'

/** What the palette adds for each kind: a state to finish on the canvas (its ways out still to connect). */
export function newState(kind: StateKind, name: string): { base: string; state: Json; variables?: Record<string, Json> } {
  switch (kind) {
    case 'message':
      return { base: 'message', state: { say: [{ text: 'Hello!' }] } }
    case 'question':
      return { base: 'question', state: { say: [{ text: 'Pick one', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No' }] }], on: [{ to: name }] } }
    case 'list':
      return { base: 'list', state: { say: [{ text: 'What would you like?', button: 'Open the list', sections: [{ rows: [{ id: 'one', title: 'One' }, { id: 'two', title: 'Two' }] }] }], on: [{ to: name }] } }
    case 'capture':
      return { base: 'ask', state: { say: [{ text: 'What is your e-mail address?' }], capture: { var: 'email', as: 'email' } }, variables: { email: { type: 'string' } } }
    case 'condition':
      return { base: 'check', state: { branch: [{ contact: 'email', set: true }, {}] } }
    case 'handoff':
      return { base: 'human', state: { handoff: { text: 'A person will answer you here shortly.' } } }
    case 'agent':
      return { base: 'assistant', state: { agent: { instructions: 'Answer the visitor\'s questions briefly and kindly.', exits: [{ when: 'the visitor wants a person' }] } } }
    case 'end':
      return { base: 'bye', state: { say: [{ text: 'Thanks, goodbye!' }], end: true } }
  }
}

export const PALETTE: StateKind[] = ['message', 'question', 'list', 'capture', 'condition', 'handoff', 'agent', 'end']

export interface Template {
  id: string
  title: string
  description: string
  flow: (tools: { integrationId: string | null }) => Json
}

export const TEMPLATES: Template[] = [
  {
    id: 'faq',
    title: 'FAQ with buttons',
    description: 'Answers to common questions behind buttons, and a person for the rest.',
    flow: () => ({
      version: 1,
      start: 'menu',
      fallback: 'Sorry, I did not get that. Pick one of the buttons.',
      states: {
        menu: {
          say: [{ text: 'Hi {{contact.first_name|there}}! What can I help with?', buttons: [{ id: 'hours', title: 'Opening hours' }, { id: 'prices', title: 'Prices' }, { id: 'human', title: 'Talk to a person' }] }],
          on: [{ button: 'hours', to: 'hours' }, { button: 'prices', to: 'prices' }, { button: 'human', to: 'human' }, { to: 'menu' }],
        },
        hours: { say: [{ text: 'We are open Monday to Friday, 9:00 to 17:00.' }], next: 'more' },
        prices: { say: [{ text: 'Plans start at 19 € a month; see our pricing page for details.' }], next: 'more' },
        more: { say: [{ text: 'Anything else?', buttons: [{ id: 'yes', title: 'Yes' }, { id: 'no', title: 'No, thanks' }] }], on: [{ button: 'yes', to: 'menu' }, { button: 'no', to: 'bye' }, { to: 'menu' }] },
        human: { handoff: { text: 'A person will answer you here shortly.', resume: 'menu' } },
        bye: { say: [{ text: 'Glad I could help. Bye!' }], end: true },
      },
    }),
  },
  {
    id: 'lead',
    title: 'Lead capture',
    description: 'Name, e-mail and phone, each checked, then thanks.',
    flow: () => ({
      version: 1,
      start: 'ask_name',
      variables: { name: { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } },
      states: {
        ask_name: { say: [{ text: 'Hi! What is your name?' }], capture: { var: 'name', as: 'text' }, next: 'ask_email' },
        ask_email: { say: [{ text: 'Thanks {{name}}. Your e-mail address?' }], capture: { var: 'email', as: 'email' }, next: 'ask_phone' },
        ask_phone: { say: [{ text: 'And a phone number we can call?' }], capture: { var: 'phone', as: 'phone', retry: 'That does not look like a phone number. Try again with the country code?' }, next: 'thanks' },
        thanks: { say: [{ text: 'Thanks {{name}}! We will be in touch at {{email}}.' }], end: true },
      },
    }),
  },
  {
    id: 'hours',
    title: 'Business-hours handoff',
    description: 'A person during opening hours; outside them, an e-mail to answer later.',
    flow: () => ({
      version: 1,
      start: 'route',
      variables: { email: { type: 'string' } },
      states: {
        route: { branch: [{ hours: { timezone: 'Europe/Berlin', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', until: '17:00' }, to: 'human' }, { to: 'closed' }] },
        human: { say: [{ text: 'Hi! A person will answer you here in a few minutes.' }], handoff: {} },
        closed: { say: [{ text: 'We are closed right now (Monday to Friday, 9:00 to 17:00). Leave your e-mail and we will answer first thing.' }], capture: { var: 'email', as: 'email' }, next: 'noted' },
        noted: { say: [{ text: 'Noted: we will write to {{email}}.' }], end: true },
      },
    }),
  },
  {
    id: 'agent',
    title: 'LLM agent with tools',
    description: "An agent that answers with your MCP tools and hands off when asked.",
    flow: ({ integrationId }) => ({
      version: 1,
      start: 'assistant',
      states: {
        assistant: {
          say: [{ text: 'Hi! Ask me anything about your account.' }],
          agent: {
            instructions: 'You help visitors with their account. Use the tools to look things up. Be brief.',
            ...(integrationId ? { tools: [{ integration_id: integrationId }] } : {}),
            exits: [
              { when: 'the visitor wants a person', to: 'human' },
              { when: 'the question is answered and the visitor is done', to: 'bye' },
            ],
            on_error: 'human',
          },
        },
        human: { handoff: { text: 'Connecting you to a person.', resume: 'assistant' } },
        bye: { say: [{ text: 'Glad I could help.' }], end: true },
      },
    }),
  },
]
