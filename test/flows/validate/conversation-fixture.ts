import type { ChatbotReferences } from '../../../server/flows/validate/conversation.ts'

export const META_FLOW_ID = '01JD3Q3M9Z5W6X7Y8Z9A0B1C2D'
export const DRAFT_META_FLOW_ID = '01JD3Q3M9Z5W6X7Y8Z9A0B1C2E'
export const CONVERSATION_FLOW_ID = '01JD3Q3M9Z5W6X7Y8Z9A0B1C2F'
export const MCP_INTEGRATION_ID = '01JD3Q3M9Z5W6X7Y8Z9A0B1C2G'

/** What the chatbot of these tests has: one published and one draft meta flow, one mcp integration. */
export const references: ChatbotReferences = {
  flows: new Map([
    [META_FLOW_ID, { type: 'meta', published: true }],
    [DRAFT_META_FLOW_ID, { type: 'meta', published: false }],
    [CONVERSATION_FLOW_ID, { type: 'conversation', published: true }],
  ]),
  mcpIntegrationIds: new Set([MCP_INTEGRATION_ID]),
}

export type Flow = any

/** A flow that uses every feature and has no error and no warning; each test bends one thing. */
export function validFlow(): Flow {
  return {
    version: 1,
    start: 'welcome',
    variables: { email: { type: 'string' }, age: { type: 'number', default: 0 } },
    fallback: 'Sorry, I did not get that.',
    states: {
      welcome: {
        say: [
          { text: 'Hi {{contact.name}}!' },
          { text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] },
        ],
        on: [
          { button: 'sales', to: 'ask_email' },
          { button: 'support', to: 'menu' },
          { match: '(?i)^my age$', to: 'ask_age' },
          { equals: 'human', to: 'human' },
          { to: 'welcome' },
        ],
      },
      menu: {
        say: [
          {
            text: 'What about?',
            button: 'Topics',
            sections: [
              { title: 'Money', rows: [{ id: 'billing', title: 'Billing' }] },
              { title: 'Reading', rows: [{ id: 'docs', title: 'Docs', description: 'Guides and the brochure' }] },
            ],
          },
        ],
        on: [{ row: 'billing', to: 'billing_agent' }, { row: 'docs', to: 'brochure' }, { to: 'welcome' }],
      },
      ask_email: {
        say: [{ text: 'What is your email?' }],
        capture: { var: 'email', as: 'email', retry: 'That does not look like an email.' },
        next: 'thanks',
      },
      ask_age: { say: [{ text: 'How old are you?' }], capture: { var: 'age', as: 'number' }, next: 'thanks' },
      brochure: {
        say: [
          { media: { type: 'file', url: 'https://example.com/brochure.pdf', caption: 'Our brochure', filename: 'brochure.pdf' } },
          { meta_flow: { flow_id: META_FLOW_ID, cta: 'Sign up' } },
        ],
        next: 'thanks',
      },
      billing_agent: {
        agent: {
          instructions: 'Answer billing questions.',
          tools: [{ integration_id: MCP_INTEGRATION_ID, allow: ['find_invoice'] }],
          exits: [{ when: 'the visitor is done', to: 'thanks' }],
        },
      },
      human: { handoff: { text: 'A person will answer you here shortly.', resume: 'route' } },
      route: {
        branch: [
          { var: 'email', set: true, to: 'thanks' },
          { contact: 'plan', equals: 'pro', to: 'menu' },
          { hours: { timezone: 'Europe/Berlin', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', until: '17:30' }, to: 'human' },
          { var: 'age', equals: 18, to: 'ask_email' },
          { to: 'welcome' },
        ],
      },
      thanks: { say: [{ text: 'Thanks! We will write to {{email}} ({{ age }}).' }], end: true },
    },
    layout: { states: { welcome: { x: 0, y: 0 }, thanks: { x: 240.5, y: -80 }, gone: { x: 1, y: 2 } } },
  }
}

/** A changed copy of the valid flow. */
export function variant(change: (flow: Flow) => void): Flow {
  const flow = validFlow()
  change(flow)
  return flow
}
