import { button, engineCases, flowOf, says, start, text } from './engine-cases.ts'

const everyKind = flowOf({
  version: 1,
  start: 'show',
  states: {
    show: {
      say: [
        { text: 'Plain text' },
        { text: 'Pick a plan', buttons: [{ id: 'basic', title: 'Basic' }, { id: 'pro', title: 'Pro' }] },
        {
          text: 'Or browse',
          button: 'Open the list',
          sections: [
            { title: 'Plans', rows: [{ id: 'team', title: 'Team', description: 'Up to 10 seats' }] },
            { rows: [{ id: 'other', title: 'Something else' }] },
          ],
        },
        { media: { type: 'image', url: 'https://cdn.acme.io/plans.png', caption: 'Our plans' } },
        { media: { type: 'file', url: 'https://cdn.acme.io/prices.pdf', filename: 'prices.pdf' } },
        { media: { type: 'video', url: 'http://cdn.acme.io/tour.mp4' } },
        { meta_flow: { flow_id: 'signup_form', cta: 'Sign up' } },
      ],
      on: [{ to: 'show' }],
    },
  },
})

const chain = flowOf({
  version: 1,
  start: 'one',
  states: {
    one: { say: [{ text: 'One' }], next: 'two' },
    two: { next: 'three' },
    three: { say: [{ text: 'Three' }, { text: 'Three again' }], next: 'wait' },
    wait: { say: [{ text: 'Your turn' }], on: [{ equals: 'again', to: 'one' }, { to: 'bye' }] },
    bye: { say: [{ text: 'Bye' }], end: true },
  },
})

engineCases('say: every kind becomes the matching Content', [
  {
    name: 'text, buttons, list, media and meta_flow are sent in order as text, buttons, list, media and meta_flow',
    flow: everyKind,
    input: start,
    messages: [
      { kind: 'text', text: 'Plain text' },
      { kind: 'buttons', text: 'Pick a plan', buttons: [{ id: 'basic', title: 'Basic' }, { id: 'pro', title: 'Pro' }] },
      {
        kind: 'list',
        text: 'Or browse',
        button: 'Open the list',
        sections: [
          { title: 'Plans', rows: [{ id: 'team', title: 'Team', description: 'Up to 10 seats' }] },
          { rows: [{ id: 'other', title: 'Something else' }] },
        ],
      },
      { kind: 'media', media: { type: 'image', url: 'https://cdn.acme.io/plans.png', caption: 'Our plans' } },
      { kind: 'media', media: { type: 'file', url: 'https://cdn.acme.io/prices.pdf', filename: 'prices.pdf' } },
      { kind: 'media', media: { type: 'video', url: 'http://cdn.acme.io/tour.mp4' } },
      { kind: 'meta_flow', flow_id: 'signup_form', cta: 'Sign up' },
    ],
    events: [],
    state_after: { state: 'show', status: 'bot', waiting: 'on' },
  },
  {
    name: 'the buttons and list said are kept in the state as offered',
    flow: everyKind,
    input: start,
    state_after: {
      interactive: [
        { kind: 'buttons', text: 'Pick a plan', buttons: [{ id: 'basic', title: 'Basic' }, { id: 'pro', title: 'Pro' }] },
        {
          kind: 'list',
          text: 'Or browse',
          button: 'Open the list',
          sections: [
            { title: 'Plans', rows: [{ id: 'team', title: 'Team', description: 'Up to 10 seats' }] },
            { rows: [{ id: 'other', title: 'Something else' }] },
          ],
        },
      ],
    },
  },
  {
    name: 'a state without say says nothing and waits',
    flow: flowOf({ version: 1, start: 'quiet', states: { quiet: { on: [{ to: 'quiet' }] } } }),
    input: start,
    messages: [],
    events: [],
    state_after: { state: 'quiet', waiting: 'on', interactive: [] },
  },
])

engineCases('next and end', [
  {
    name: 'next is followed at once: the messages of every state on the chain, in order, then the bot waits',
    flow: chain,
    input: start,
    messages: says('One', 'Three', 'Three again', 'Your turn'),
    events: [],
    state_after: { state: 'wait', status: 'bot', waiting: 'on' },
  },
  {
    name: 'a transition into a chain runs the chain again from there',
    flow: chain,
    before: [],
    input: text('again'),
    messages: says('One', 'Three', 'Three again', 'Your turn'),
    state_after: { state: 'wait', waiting: 'on' },
  },
  {
    name: 'end says its messages and closes the conversation',
    flow: chain,
    before: [],
    input: text('anything'),
    messages: says('Bye'),
    events: [{ type: 'closed', state: 'bye', reason: 'end' }],
    state_after: { state: 'bye', status: 'closed', waiting: null },
  },
  {
    name: 'a start state that ends at once opens and closes in one step',
    flow: flowOf({ version: 1, start: 'only', states: { only: { say: [{ text: 'We are closed today.' }], end: true } } }),
    input: start,
    messages: says('We are closed today.'),
    events: [{ type: 'closed', state: 'only', reason: 'end' }],
    state_after: { status: 'closed' },
  },
])

engineCases('closed conversations', [
  {
    name: 'a text after the end gets no messages and no events; the state stays closed',
    flow: chain,
    before: [text('done')],
    input: text('hello?'),
    messages: [],
    events: [],
    state_after: { state: 'bye', status: 'closed', waiting: null },
  },
  {
    name: 'a button reply after the end gets nothing either',
    flow: chain,
    before: [text('done')],
    input: button('again', 'again'),
    messages: [],
    events: [],
  },
  {
    name: 'start on a closed conversation begins a new one from the start state',
    flow: chain,
    before: [text('done')],
    input: start,
    messages: says('One', 'Three', 'Three again', 'Your turn'),
    state_after: { state: 'wait', status: 'bot' },
  },
])

engineCases('the loop guard and damaged states', [
  {
    name: 'a next cycle that never waits closes the conversation with reason loop instead of hanging',
    flow: flowOf({
      version: 1,
      start: 'ping',
      states: { ping: { say: [{ text: 'ping' }], next: 'pong' }, pong: { say: [{ text: 'pong' }], next: 'ping' } },
    }),
    input: start,
    messages: says('ping', 'pong'),
    events: [{ type: 'closed', state: 'ping', reason: 'loop' }],
    state_after: { state: 'ping', status: 'closed', waiting: null },
  },
  {
    name: 'a state that goes next to itself is a loop too',
    flow: flowOf({ version: 1, start: 'again', states: { again: { next: 'again' } } }),
    input: start,
    messages: [],
    events: [{ type: 'closed', state: 'again', reason: 'loop' }],
  },
  {
    name: 'a state entered once more after waiting is no loop',
    flow: flowOf({
      version: 1,
      start: 'menu',
      states: { menu: { say: [{ text: 'Menu' }], on: [{ to: 'sorry' }] }, sorry: { say: [{ text: 'Sorry' }], next: 'menu' } },
    }),
    before: [],
    input: text('x'),
    messages: says('Sorry', 'Menu'),
    events: [],
    state_after: { state: 'menu', status: 'bot', waiting: 'on' },
  },
  {
    name: 'a next to a state that does not exist closes with reason missing_state',
    flow: flowOf({ version: 1, start: 'a', states: { a: { say: [{ text: 'A' }], next: 'gone' } } }),
    input: start,
    messages: says('A'),
    events: [{ type: 'closed', state: 'gone', reason: 'missing_state' }],
    state_after: { status: 'closed' },
  },
  {
    name: 'a state name that Object.prototype knows (constructor) is still missing',
    flow: flowOf({ version: 1, start: 'a', states: { a: { next: 'constructor' } } }),
    input: start,
    events: [{ type: 'closed', state: 'constructor', reason: 'missing_state' }],
  },
  {
    name: 'a missing start state closes at once',
    flow: flowOf({ version: 1, start: 'nowhere', states: { a: { end: true } } }),
    input: start,
    messages: [],
    events: [{ type: 'closed', state: 'nowhere', reason: 'missing_state' }],
  },
  {
    name: 'a state with no way out closes with reason no_way_out',
    flow: flowOf({ version: 1, start: 'stuck', states: { stuck: { say: [{ text: 'Hmm' }] } } }),
    input: start,
    messages: says('Hmm'),
    events: [{ type: 'closed', state: 'stuck', reason: 'no_way_out' }],
  },
  {
    name: 'a stored state the flow no longer has closes with reason missing_state on the next input',
    flow: chain,
    state: { state: 'removed', status: 'bot', waiting: 'on', variables: {}, interactive: [] },
    input: text('hi'),
    messages: [],
    events: [{ type: 'closed', state: 'removed', reason: 'missing_state' }],
    state_after: { state: 'removed', status: 'closed' },
  },
])
