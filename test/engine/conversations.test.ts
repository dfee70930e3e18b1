import { describe, expect, test } from 'bun:test'
import type { ConversationState, EngineContext, EngineEvent, EngineInput } from '../../server/engine/model.ts'
import { runEngine } from '../../server/engine/run-engine.ts'
import type { Content } from '../../server/protocol/widget-protocol.ts'
import leadCaptureDefinition from './fixtures/lead-capture.json'
import salesAndSupportDefinition from './fixtures/sales-and-support.json'
import { button, flowOf, resume, row, says, start, text } from './engine-cases.ts'

const salesAndSupport = flowOf(salesAndSupportDefinition)
const leadCapture = flowOf(leadCaptureDefinition)

interface Turn {
  input: EngineInput
  messages: Content[]
  events?: EngineEvent[]
  status: ConversationState['status']
}

/** Plays a whole conversation, storing the state as JSON between turns as a channel does. */
function play(flow: typeof salesAndSupport, turns: Turn[], context: EngineContext) {
  let stored: string | null = null
  for (const [index, turn] of turns.entries()) {
    const result = runEngine(flow, stored === null ? null : JSON.parse(stored), turn.input, context)
    const label = `turn ${index + 1}: ${JSON.stringify(turn.input)}`
    expect({ label, messages: result.messages }).toEqual({ label, messages: turn.messages })
    if (turn.events) expect({ label, events: result.events }).toEqual({ label, events: turn.events })
    expect({ label, status: result.state.status }).toEqual({ label, status: turn.status })
    stored = JSON.stringify(result.state)
  }
  return stored === null ? null : (JSON.parse(stored) as ConversationState)
}

const pickOne = { kind: 'buttons' as const, text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] }

describe('the example flow of conversation-flow.md', () => {
  test('sales: a typed price question, a bad e-mail, a good one, then the end', () => {
    const state = play(
      salesAndSupport,
      [
        { input: start, messages: [...says('Hi! How can I help?'), pickOne], events: [], status: 'bot' },
        { input: text('What about your PRICING?'), messages: says('What is your email?'), events: [], status: 'bot' },
        { input: text('jane at acme'), messages: says('That does not look like an email.'), status: 'bot' },
        {
          input: text('Jane@Acme.io'),
          messages: says('Thanks, we will write to Jane@acme.io.'),
          events: [
            { type: 'captured', var: 'email', value: 'Jane@acme.io' },
            { type: 'closed', state: 'thanks', reason: 'end' },
          ],
          status: 'closed',
        },
        { input: text('one more thing'), messages: [], events: [], status: 'closed' },
      ],
      { contact: {} },
    )
    expect(state?.variables).toEqual({ email: 'Jane@acme.io' })
  })

  test('anything else goes through the fallback state back to the buttons; Support hands off', () => {
    play(
      salesAndSupport,
      [
        { input: start, messages: [...says('Hi! How can I help?'), pickOne], status: 'bot' },
        { input: text('hmm'), messages: [...says('Sorry, I did not get that.', 'Hi! How can I help?'), pickOne], events: [], status: 'bot' },
        { input: text('support'), messages: says('A person will answer you here shortly.'), events: [{ type: 'handoff', state: 'human' }], status: 'handoff' },
        { input: text('hello?'), messages: [], events: [], status: 'handoff' },
        { input: resume, messages: [...says('Hi! How can I help?'), pickOne], events: [{ type: 'resumed', state: 'welcome' }], status: 'bot' },
        { input: button('sales', 'Sales'), messages: says('What is your email?'), status: 'bot' },
      ],
      { contact: {} },
    )
  })
})

describe('the lead capture flow', () => {
  const context: EngineContext = { contact: { first_name: 'Grace' }, defaultCountry: 'GB' }
  const topics = {
    kind: 'list' as const,
    text: 'What brings you here?',
    button: 'Choose a topic',
    sections: [
      { title: 'Buying', rows: [{ id: 'plans', title: 'Plans and prices', description: 'Compare our plans' }, { id: 'demo', title: 'Book a demo' }] },
      { title: 'Help', rows: [{ id: 'agent', title: 'Talk to a person' }] },
    ],
  }
  const welcome: Content[] = [
    { kind: 'text', text: 'Hi Grace! I am the Acme assistant.' },
    { kind: 'media', media: { type: 'image', url: 'https://cdn.acme.io/welcome.png', caption: 'Welcome, Grace' } },
    topics,
  ]
  const plans: Content[] = [
    { kind: 'media', media: { type: 'file', url: 'https://cdn.acme.io/plans.pdf', filename: 'acme-plans.pdf', caption: 'Our plans' } },
    { kind: 'buttons', text: 'Which one suits you?', buttons: [{ id: 'basic', title: 'Basic' }, { id: 'pro', title: 'Pro' }] },
  ]

  test('from the list to plans, a typed plan name, seats, a local phone number and an e-mail', () => {
    const state = play(
      leadCapture,
      [
        { input: start, messages: welcome, status: 'bot' },
        { input: text('no idea'), messages: [...says('Sorry Grace, I did not catch that. Please pick one of these:'), topics], events: [{ type: 'unmatched', state: 'welcome' }], status: 'bot' },
        { input: row('plans', 'Plans and prices'), messages: plans, status: 'bot' },
        { input: text('premium?'), messages: [...says('Basic or Pro?'), ...plans], status: 'bot' },
        { input: text('pro'), messages: says('Pro comes with a 14-day trial.', 'How many seats do you need?'), status: 'bot' },
        { input: text('a dozen'), messages: says('Just the number of seats, please (for example 12).'), status: 'bot' },
        { input: text('1,200'), messages: says('1200 seats, noted. What number can we call you on?'), events: [{ type: 'captured', var: 'seats', value: 1200 }], status: 'bot' },
        { input: text('12345'), messages: says('That number does not work for me. Could you type it with the country code?'), status: 'bot' },
        { input: text('020 7946 0958'), messages: says('And your work e-mail?'), events: [{ type: 'captured', var: 'phone', value: '+442079460958' }], status: 'bot' },
        { input: text('grace@example.com'), messages: says('That address is only for examples and never receives mail. Please give an address you read.'), status: 'bot' },
        {
          input: text('grace@acme.io'),
          messages: [
            ...says('Thanks! We will call +442079460958 and write to grace@acme.io about 1200 seats.'),
            { kind: 'meta_flow', flow_id: 'demo_booking', cta: 'Pick a demo slot' },
          ],
          events: [
            { type: 'captured', var: 'email', value: 'grace@acme.io' },
            { type: 'closed', state: 'signup', reason: 'end' },
          ],
          status: 'closed',
        },
      ],
      context,
    )
    expect(state?.variables).toEqual({ plan: 'none', seats: 1200, phone: '+442079460958', email: 'grace@acme.io' })
  })

  test('a typed row title and a demo keyword both work; a person takes over and hands back to the welcome', () => {
    play(
      leadCapture,
      [
        { input: start, messages: welcome, status: 'bot' },
        { input: text('talk to a PERSON'), messages: says('Let me find someone for you.', 'A person will answer you here shortly, Grace.'), events: [{ type: 'handoff', state: 'human' }], status: 'handoff' },
        { input: row('demo', 'Book a demo'), messages: [], status: 'handoff' },
        { input: resume, messages: welcome, events: [{ type: 'resumed', state: 'welcome' }], status: 'bot' },
        { input: text('Can I get a trial?'), messages: says('How many seats do you need?'), status: 'bot' },
      ],
      context,
    )
  })
})
