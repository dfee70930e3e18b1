import { button, engineCases, flowOf, resume, says, start, text } from './engine-cases.ts'

const handoff = flowOf({
  version: 1,
  start: 'menu',
  variables: { topic: { type: 'string' } },
  states: {
    menu: { say: [{ text: 'Menu' }], on: [{ equals: 'human', to: 'human' }, { equals: 'later', to: 'human_back_to_start' }, { to: 'menu' }] },
    human: { say: [{ text: 'Hold on' }], handoff: { text: 'A person will answer you here shortly.', resume: 'after_human' } },
    human_back_to_start: { handoff: {} },
    after_human: { say: [{ text: 'The bot is back.' }], capture: { var: 'topic', as: 'text' }, next: 'menu' },
  },
})

engineCases('handoff', [
  {
    name: 'a handoff state says its messages, then the handoff text, and hands the conversation to a person',
    flow: handoff,
    before: [],
    input: text('human'),
    messages: says('Hold on', 'A person will answer you here shortly.'),
    events: [{ type: 'handoff', state: 'human' }],
    state_after: { state: 'human', status: 'handoff', waiting: null },
  },
  {
    name: 'a handoff without text says nothing',
    flow: handoff,
    before: [],
    input: text('later'),
    messages: [],
    events: [{ type: 'handoff', state: 'human_back_to_start' }],
    state_after: { status: 'handoff' },
  },
  {
    name: 'while handed off the bot does not answer texts',
    flow: handoff,
    before: [text('human')],
    input: text('hello? anyone?'),
    messages: [],
    events: [],
    state_after: { state: 'human', status: 'handoff', waiting: null },
  },
  {
    name: 'while handed off the bot does not answer button replies',
    flow: handoff,
    before: [text('human')],
    input: button('menu', 'Menu'),
    messages: [],
    events: [],
  },
  {
    name: 'resume enters handoff.resume and the bot answers again',
    flow: handoff,
    before: [text('human')],
    input: resume,
    messages: says('The bot is back.'),
    events: [{ type: 'resumed', state: 'after_human' }],
    state_after: { state: 'after_human', status: 'bot', waiting: 'capture' },
  },
  {
    name: 'after resume the next input is answered by the flow',
    flow: handoff,
    before: [text('human'), resume],
    input: text('billing'),
    messages: says('Menu'),
    events: [{ type: 'captured', var: 'topic', value: 'billing' }],
  },
  {
    name: 'resume without handoff.resume enters the start state',
    flow: handoff,
    before: [text('later')],
    input: resume,
    messages: says('Menu'),
    events: [{ type: 'resumed', state: 'menu' }],
    state_after: { state: 'menu', status: 'bot', waiting: 'on' },
  },
  {
    name: 'resume keeps the variables captured before the handoff',
    flow: handoff,
    state: { state: 'human', status: 'handoff', waiting: null, variables: { topic: 'billing' }, interactive: [] },
    input: resume,
    state_after: { variables: { topic: 'billing' } },
  },
  {
    name: 'resume while the bot is running changes nothing',
    flow: handoff,
    before: [],
    input: resume,
    messages: [],
    events: [],
    state_after: { state: 'menu', status: 'bot', waiting: 'on' },
  },
  {
    name: 'resume on a closed conversation changes nothing',
    flow: handoff,
    state: { state: 'menu', status: 'closed', waiting: null, variables: {}, interactive: [] },
    input: resume,
    messages: [],
    events: [],
    state_after: { status: 'closed' },
  },
  {
    name: 'resume on a handed-off conversation whose state the flow lost enters the start state',
    flow: handoff,
    state: { state: 'removed', status: 'handoff', waiting: null, variables: {}, interactive: [] },
    input: resume,
    messages: says('Menu'),
    events: [{ type: 'resumed', state: 'menu' }],
  },
])

const agent = flowOf({
  version: 1,
  start: 'greet',
  states: {
    greet: { say: [{ text: 'Ask me anything' }], next: 'assistant' },
    assistant: {
      say: [{ text: 'Thinking along with you…' }],
      agent: { instructions: 'Answer questions about our plans.', exits: [{ when: 'the visitor wants a person', to: 'human' }] },
    },
    human: { handoff: { text: 'A person will take over.' } },
  },
})

engineCases('agent states (the LLM agent is not available yet)', [
  {
    name: 'entering an agent state says its messages, waits for the agent and announces it',
    flow: agent,
    input: start,
    messages: says('Ask me anything', 'Thinking along with you…'),
    events: [{ type: 'agent', state: 'assistant' }],
    state_after: { state: 'assistant', status: 'bot', waiting: 'agent' },
  },
  {
    name: 'a text in an agent state gets no bot message; the agent event comes again for an agent adapter',
    flow: agent,
    before: [],
    input: text('What does the pro plan cost?'),
    messages: [],
    events: [{ type: 'agent', state: 'assistant' }],
    state_after: { state: 'assistant', status: 'bot', waiting: 'agent' },
  },
  {
    name: 'a button reply in an agent state is handed to the agent the same way',
    flow: agent,
    before: [],
    input: button('x', 'X'),
    messages: [],
    events: [{ type: 'agent', state: 'assistant' }],
  },
])
