import type { EngineInput } from '../../server/engine/model.ts'
import { button, engineCases, flowOf, row, says, text } from './engine-cases.ts'

const menu = flowOf({
  version: 1,
  start: 'menu',
  states: {
    menu: {
      say: [
        { text: 'Hello' },
        { text: 'What do you need?', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] },
        {
          text: 'Or pick a topic',
          button: 'Topics',
          sections: [{ title: 'Topics', rows: [{ id: 'billing', title: 'Billing' }, { id: 'sales', title: 'Sales team' }] }],
        },
      ],
      on: [
        { button: 'sales', to: 'sales' },
        { row: 'billing', to: 'billing' },
        { row: 'sales', to: 'sales_row' },
        { match: '(?i)\\b(price|pricing)\\b', to: 'pricing' },
        { match: '^[0-9]{5}$', to: 'zip' },
        { equals: '  Opening Hours ', to: 'hours' },
        { button: 'support', to: 'support' },
      ],
    },
    sales: { say: [{ text: 'Sales here' }], end: true },
    sales_row: { say: [{ text: 'Sales team here' }], end: true },
    billing: { say: [{ text: 'Billing here' }], end: true },
    pricing: { say: [{ text: 'Prices' }], end: true },
    zip: { say: [{ text: 'Zip code' }], end: true },
    hours: { say: [{ text: '9 to 5' }], end: true },
    support: { say: [{ text: 'Support here' }], end: true },
  },
})

const lastButtons = { kind: 'list' as const, text: 'Or pick a topic', button: 'Topics', sections: [{ title: 'Topics', rows: [{ id: 'billing', title: 'Billing' }, { id: 'sales', title: 'Sales team' }] }] }

engineCases('on: button and row replies match by id', [
  { name: 'a button reply with a listed id takes its transition', flow: menu, before: [], input: button('sales', 'Sales'), messages: says('Sales here') },
  { name: 'a row reply with a listed id takes its transition', flow: menu, before: [], input: row('billing', 'Billing'), messages: says('Billing here') },
  { name: 'a row and a button may share an id: the reply kind decides', flow: menu, before: [], input: row('sales', 'Sales team'), messages: says('Sales team here') },
  {
    name: 'a button transition is not taken by a row reply of that id: the kind must match',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ button: 'x', to: 'b' }, { to: 'other' }] }, b: { say: [{ text: 'B' }], end: true }, other: { say: [{ text: 'Other' }], end: true } } }),
    before: [],
    input: row('x', 'X'),
    messages: says('Other'),
  },
  {
    name: 'a reply whose id no transition names falls back',
    flow: menu,
    before: [],
    input: button('careers', 'Careers'),
    messages: [...says('Sorry, I did not understand that.'), lastButtons],
    events: [{ type: 'unmatched', state: 'menu' }],
  },
  {
    name: 'the id decides, not the title the client sends',
    flow: menu,
    before: [],
    input: button('support', 'Sales'),
    messages: says('Support here'),
  },
])

engineCases('on: typed labels count as replies', [
  { name: 'typing a button title picks that button', flow: menu, before: [], input: text('Sales'), messages: says('Sales here') },
  { name: 'typing it in other case and with spaces picks it too', flow: menu, before: [], input: text('  sUPPORT \n'), messages: says('Support here') },
  { name: 'typing a list row title picks that row', flow: menu, before: [], input: text('billing'), messages: says('Billing here') },
  { name: 'typing a row title that shares its id with a button picks the row', flow: menu, before: [], input: text('Sales team'), messages: says('Sales team here') },
  {
    name: 'a text that only contains a title is not a pick',
    flow: menu,
    before: [],
    input: text('Sales please'),
    messages: [...says('Sorry, I did not understand that.'), lastButtons],
  },
  {
    name: 'buttons said earlier on the same next chain are on offer where the bot waits',
    flow: flowOf({
      version: 1,
      start: 'ask',
      states: {
        ask: { say: [{ text: 'Coffee or tea?', buttons: [{ id: 'coffee', title: 'Coffee' }, { id: 'tea', title: 'Tea' }] }], next: 'wait' },
        wait: { on: [{ button: 'tea', to: 'tea' }, { to: 'ask' }] },
        tea: { say: [{ text: 'Tea it is' }], end: true },
      },
    }),
    before: [],
    input: text('tea'),
    messages: says('Tea it is'),
  },
  {
    name: 'titles from a state the bot has left are no longer on offer',
    flow: flowOf({
      version: 1,
      start: 'first',
      states: {
        first: { say: [{ text: 'Go?', buttons: [{ id: 'go', title: 'Go' }] }], on: [{ to: 'second' }] },
        second: { say: [{ text: 'Now type' }], on: [{ button: 'go', to: 'went' }, { to: 'typed' }] },
        went: { say: [{ text: 'Went' }], end: true },
        typed: { say: [{ text: 'Typed' }], end: true },
      },
    }),
    before: [text('ok')],
    input: text('Go'),
    messages: says('Typed'),
  },
])

engineCases('on: match, equals and always', [
  { name: 'match finds the regex anywhere in the text', flow: menu, before: [], input: text('What is the price?'), messages: says('Prices') },
  { name: 'a leading (?i) makes match ignore case', flow: menu, before: [], input: text('PRICING please'), messages: says('Prices') },
  {
    name: 'without (?i) match is case-sensitive',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ match: 'Yes', to: 'y' }, { to: 'n' }] }, y: { say: [{ text: 'Y' }], end: true }, n: { say: [{ text: 'N' }], end: true } } }),
    before: [],
    input: text('yes'),
    messages: says('N'),
  },
  { name: 'match does not fire on a near miss', flow: menu, before: [], input: text('priceless'), messages: [...says('Sorry, I did not understand that.'), lastButtons] },
  { name: 'anchors apply to the trimmed text', flow: menu, before: [], input: text(' 90210 '), messages: says('Zip code') },
  { name: 'anchored match refuses extra characters', flow: menu, before: [], input: text('902101'), messages: [...says('Sorry, I did not understand that.'), lastButtons] },
  {
    name: 'match sees only the first 1000 characters of the text',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ match: 'needle', to: 'found' }, { to: 'missed' }] }, found: { say: [{ text: 'Found' }], end: true }, missed: { say: [{ text: 'Missed' }], end: true } } }),
    before: [],
    input: text(`${'x'.repeat(1000)}needle`),
    messages: says('Missed'),
  },
  {
    name: 'match finds a needle within the first 1000 characters',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ match: 'needle', to: 'found' }, { to: 'missed' }] }, found: { say: [{ text: 'Found' }], end: true }, missed: { say: [{ text: 'Missed' }], end: true } } }),
    before: [],
    input: text(`${'x'.repeat(994)}needle`),
    messages: says('Found'),
  },
  {
    name: 'match tests the title of a picked button too',
    flow: flowOf({ version: 1, start: 'm', states: { m: { say: [{ text: 'Hi', buttons: [{ id: 'p', title: 'Pricing' }] }], on: [{ match: '(?i)pric', to: 'found' }] }, found: { say: [{ text: 'Found' }], end: true } } }),
    before: [],
    input: button('p', 'whatever the client says'),
    messages: says('Found'),
  },
  { name: 'equals compares trimmed and ignoring case', flow: menu, before: [], input: text('opening HOURS  '), messages: says('9 to 5') },
  { name: 'equals needs the whole text', flow: menu, before: [], input: text('opening hours?'), messages: [...says('Sorry, I did not understand that.'), lastButtons] },
  {
    name: 'equals treats composed and decomposed accents alike',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ equals: 'Café', to: 'c' }] }, c: { say: [{ text: 'Coffee' }], end: true } } }),
    before: [],
    input: text('CAFE\u0301'),
    messages: says('Coffee'),
  },
  {
    name: 'an always transition ({}) takes any input',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ equals: 'a', to: 'a' }, { to: 'any' }] }, a: { end: true }, any: { say: [{ text: 'Any' }], end: true } } }),
    before: [],
    input: text('zzz'),
    messages: says('Any'),
  },
  {
    name: 'an always transition takes a button reply too',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ to: 'any' }] }, any: { say: [{ text: 'Any' }], end: true } } }),
    before: [],
    input: button('whatever', 'Whatever'),
    messages: says('Any'),
  },
  {
    name: 'an invalid regex (the validator refuses it) never matches instead of failing',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ match: '(unclosed', to: 'a' }, { to: 'b' }] }, a: { say: [{ text: 'A' }], end: true }, b: { say: [{ text: 'B' }], end: true } } }),
    before: [],
    input: text('(unclosed'),
    messages: says('B'),
  },
])

const ordered = flowOf({
  version: 1,
  start: 'm',
  states: {
    m: {
      say: [{ text: 'Yes?', buttons: [{ id: 'yes', title: 'Yes' }] }],
      on: [
        { match: '(?i)^y', to: 'first' },
        { button: 'yes', to: 'second' },
        { equals: 'yes', to: 'third' },
        { to: 'fourth' },
      ],
    },
    first: { say: [{ text: 'first' }], end: true },
    second: { say: [{ text: 'second' }], end: true },
    third: { say: [{ text: 'third' }], end: true },
    fourth: { say: [{ text: 'fourth' }], end: true },
  },
})

engineCases('on: transitions are tried in order and the first match wins', [
  { name: 'a text matching several transitions takes the first', flow: ordered, before: [], input: text('yes'), messages: says('first') },
  { name: 'a button pick whose title the first match also fits takes the first', flow: ordered, before: [], input: button('yes', 'Yes'), messages: says('first') },
  { name: 'what only the last transition fits reaches it', flow: ordered, before: [], input: text('no'), messages: says('fourth') },
  {
    name: 'an always transition placed first shadows everything after it',
    flow: flowOf({ version: 1, start: 'm', states: { m: { on: [{ to: 'a' }, { equals: 'b', to: 'b' }] }, a: { say: [{ text: 'A' }], end: true }, b: { say: [{ text: 'B' }], end: true } } }),
    before: [],
    input: text('b'),
    messages: says('A'),
  },
])

const withFallback = flowOf({
  version: 1,
  start: 'm',
  fallback: 'I did not get that, {{ name }}.',
  variables: { name: { type: 'string', default: 'friend' } },
  states: {
    m: {
      say: [
        { text: 'First', buttons: [{ id: 'a', title: 'A' }] },
        { text: 'Second', buttons: [{ id: 'b', title: 'B' }] },
      ],
      on: [{ button: 'a', to: 'done' }, { button: 'b', to: 'done' }],
    },
    done: { say: [{ text: 'Done' }], end: true },
  },
})

engineCases('unmatched input: fallback', [
  {
    name: 'input no transition matches gets the flow fallback (templates filled) and the last interactive message again',
    flow: withFallback,
    before: [],
    input: text('c'),
    messages: [...says('I did not get that, friend.'), { kind: 'buttons', text: 'Second', buttons: [{ id: 'b', title: 'B' }] }],
    events: [{ type: 'unmatched', state: 'm' }],
    state_after: { state: 'm', status: 'bot', waiting: 'on' },
  },
  {
    name: 'after a fallback the buttons still work',
    flow: withFallback,
    before: [text('c'), text('d')],
    input: text('a'),
    messages: says('Done'),
  },
  {
    name: 'without a flow fallback the default reply is said, and a state without buttons shows nothing more',
    flow: flowOf({ version: 1, start: 'm', states: { m: { say: [{ text: 'Type a word' }], on: [{ equals: 'word', to: 'm' }] } } }),
    before: [],
    input: text('something'),
    messages: says('Sorry, I did not understand that.'),
    events: [{ type: 'unmatched', state: 'm' }],
  },
])

engineCases('a first input without a conversation', [
  {
    name: 'a text with no state starts the conversation and is not taken as an answer',
    flow: menu,
    state: null,
    input: text('Sales'),
    messages: [
      ...says('Hello'),
      { kind: 'buttons', text: 'What do you need?', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] },
      lastButtons,
    ],
    state_after: { state: 'menu', waiting: 'on' },
  },
])

const opener = (value: string): EngineInput => ({ kind: 'text', text: value, opening: true })
const opens = flowOf({
  version: 1,
  start: 'menu',
  variables: { name: { type: 'string' } },
  states: {
    menu: {
      say: [{ text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }] }],
      on: [{ button: 'sales', to: 'sales' }, { match: '(?i)price', to: 'sales' }, { to: 'lost' }],
    },
    sales: { say: [{ text: 'Sales here.' }], end: true },
    lost: { say: [{ text: 'Sorry?' }], next: 'menu' },
    ask: { say: [{ text: 'Your name?' }], capture: { var: 'name', as: 'text' }, next: 'sales' },
  },
})
const asking = flowOf({ ...opens, start: 'ask' })

engineCases('the message that opened the conversation', [
  {
    name: 'follows a transition with a condition it meets (a typed button title, a match)',
    flow: opens,
    before: [],
    input: opener('what is the price?'),
    messages: [{ kind: 'text', text: 'Sales here.' }],
    state_after: { state: 'sales', status: 'closed' },
  },
  {
    name: 'a typed button title counts as the pick',
    flow: opens,
    before: [],
    input: opener('sales'),
    messages: [{ kind: 'text', text: 'Sales here.' }],
  },
  {
    name: 'is not an answer otherwise: no catch-all transition, no fallback, nothing said',
    flow: opens,
    before: [],
    input: opener('hello'),
    messages: [],
    events: [],
    state_after: { state: 'menu', waiting: 'on' },
  },
  {
    name: 'is never captured: it was not an answer to the question',
    flow: asking,
    before: [],
    input: opener('hello'),
    messages: [],
    events: [],
    state_after: { state: 'ask', waiting: 'capture', variables: {} },
  },
])
