import { t } from '../../../../i18n/language.ts'
import type { StateKind } from './flow-model.ts'
import type { Json } from './json.ts'

/** A `{{name}}` of the flow's template language, given to a catalogue text as its `{name}`. */
const slot = (name: string) => `{{${name}}}`

/** What the palette adds for each kind, in the language shown: a state to finish on the canvas (its ways out still to connect). */
export function newState(kind: StateKind, name: string): { base: string; state: Json; variables?: Record<string, Json> } {
  switch (kind) {
    case 'message':
      return { base: 'message', state: { say: [{ text: t('flowModel.new.message') }] } }
    case 'question':
      return { base: 'question', state: { say: [{ text: t('flowModel.new.question'), buttons: [{ id: 'yes', title: t('flowModel.new.yes') }, { id: 'no', title: t('flowModel.new.no') }] }], on: [{ to: name }] } }
    case 'list':
      return { base: 'list', state: { say: [{ text: t('flowModel.new.list'), button: t('flowModel.new.listButton'), sections: [{ rows: [{ id: 'one', title: t('flowModel.new.one') }, { id: 'two', title: t('flowModel.new.two') }] }] }], on: [{ to: name }] } }
    case 'capture':
      return { base: 'ask', state: { say: [{ text: t('flowModel.new.capture') }], capture: { var: 'email', as: 'email' } }, variables: { email: { type: 'string' } } }
    case 'condition':
      return { base: 'check', state: { branch: [{ contact: 'email', set: true }, {}] } }
    case 'handoff':
      return { base: 'human', state: { handoff: { text: t('flowModel.new.handoff') } } }
    case 'agent':
      return { base: 'assistant', state: { agent: { instructions: t('flowModel.new.agent'), exits: [{ when: t('flowModel.new.agentExit') }] } } }
    case 'end':
      return { base: 'bye', state: { say: [{ text: t('flowModel.new.end') }], end: true } }
  }
}

export const PALETTE: StateKind[] = ['message', 'question', 'list', 'capture', 'condition', 'handoff', 'agent', 'end']

export interface Template {
  id: string
  /** In the language shown (reactive). */
  title(): string
  description(): string
  /** The flow, its texts in the language shown when it is made. */
  flow: (tools: { integrationId: string | null }) => Json
}

/** The builder's time zone, for the opening hours a template starts with. */
const hereZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

export const TEMPLATES: Template[] = [
  {
    id: 'faq',
    title: () => t('flowModel.faq.title'),
    description: () => t('flowModel.faq.description'),
    flow: () => ({
      version: 1,
      start: 'menu',
      fallback: t('flowModel.faq.fallback'),
      states: {
        menu: {
          say: [{ text: t('flowModel.faq.menu', { firstName: `{{contact.first_name|${t('flowModel.faq.there')}}}` }), buttons: [{ id: 'hours', title: t('flowModel.faq.hoursButton') }, { id: 'prices', title: t('flowModel.faq.pricesButton') }, { id: 'human', title: t('flowModel.faq.humanButton') }] }],
          on: [{ button: 'hours', to: 'hours' }, { button: 'prices', to: 'prices' }, { button: 'human', to: 'human' }, { to: 'menu' }],
        },
        hours: { say: [{ text: t('flowModel.faq.hours') }], next: 'more' },
        prices: { say: [{ text: t('flowModel.faq.prices') }], next: 'more' },
        more: { say: [{ text: t('flowModel.faq.more'), buttons: [{ id: 'yes', title: t('flowModel.faq.yes') }, { id: 'no', title: t('flowModel.faq.no') }] }], on: [{ button: 'yes', to: 'menu' }, { button: 'no', to: 'bye' }, { to: 'menu' }] },
        human: { handoff: { text: t('flowModel.faq.human'), resume: 'menu' } },
        bye: { say: [{ text: t('flowModel.faq.bye') }], end: true },
      },
    }),
  },
  {
    id: 'lead',
    title: () => t('flowModel.lead.title'),
    description: () => t('flowModel.lead.description'),
    flow: () => ({
      version: 1,
      start: 'ask_name',
      variables: { name: { type: 'string' }, email: { type: 'string' }, phone: { type: 'string' } },
      states: {
        ask_name: { say: [{ text: t('flowModel.lead.name') }], capture: { var: 'name', as: 'text' }, next: 'ask_email' },
        ask_email: { say: [{ text: t('flowModel.lead.email', { name: slot('name') }) }], capture: { var: 'email', as: 'email' }, next: 'ask_phone' },
        ask_phone: { say: [{ text: t('flowModel.lead.phone') }], capture: { var: 'phone', as: 'phone', retry: t('flowModel.lead.phoneRetry') }, next: 'thanks' },
        thanks: { say: [{ text: t('flowModel.lead.thanks', { name: slot('name'), email: slot('email') }) }], end: true },
      },
    }),
  },
  {
    id: 'hours',
    title: () => t('flowModel.hours.title'),
    description: () => t('flowModel.hours.description'),
    flow: () => ({
      version: 1,
      start: 'route',
      variables: { email: { type: 'string' } },
      states: {
        route: { branch: [{ hours: { timezone: hereZone(), days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', until: '17:00' }, to: 'human' }, { to: 'closed' }] },
        human: { say: [{ text: t('flowModel.hours.human') }], handoff: {} },
        closed: { say: [{ text: t('flowModel.hours.closed') }], capture: { var: 'email', as: 'email' }, next: 'noted' },
        noted: { say: [{ text: t('flowModel.hours.noted', { email: slot('email') }) }], end: true },
      },
    }),
  },
  {
    id: 'agent',
    title: () => t('flowModel.agent.title'),
    description: () => t('flowModel.agent.description'),
    flow: ({ integrationId }) => ({
      version: 1,
      start: 'assistant',
      states: {
        assistant: {
          say: [{ text: t('flowModel.agent.hello') }],
          agent: {
            instructions: t('flowModel.agent.instructions'),
            ...(integrationId ? { tools: [{ integration_id: integrationId }] } : {}),
            exits: [
              { when: t('flowModel.agent.wantsPerson'), to: 'human' },
              { when: t('flowModel.agent.done'), to: 'bye' },
            ],
            on_error: 'human',
          },
        },
        human: { handoff: { text: t('flowModel.agent.human'), resume: 'assistant' } },
        bye: { say: [{ text: t('flowModel.agent.bye') }], end: true },
      },
    }),
  },
]
