import { describe, expect, test } from 'bun:test'
import { button, converse, engineCases, flowOf, says, start, text } from './engine-cases.ts'

const capture = (as: 'text' | 'email' | 'phone' | 'number', retry?: string) =>
  flowOf({
    version: 1,
    start: 'ask',
    variables: { answer: { type: as === 'number' ? 'number' : 'string' } },
    states: {
      ask: { say: [{ text: 'Your answer?' }], capture: { var: 'answer', as, ...(retry && { retry }) }, next: 'thanks' },
      thanks: { say: [{ text: 'Got {{answer}}' }], on: [{ to: 'ask' }] },
    },
  })

const captured = (value: string | number) => ({
  messages: says(`Got ${value}`),
  events: [{ type: 'captured' as const, var: 'answer', value }],
  state_after: { state: 'thanks', variables: { answer: value } },
})

const refused = (as: string, retry: string) => ({
  messages: says(retry),
  events: [{ type: 'capture_rejected' as const, state: 'ask', var: 'answer', as: as as 'text' }],
  state_after: { state: 'ask', status: 'bot' as const, waiting: 'capture' as const, variables: {} },
})

const textFlow = capture('text')
const emailFlow = capture('email', 'That does not look like an email.')
const phoneFlow = capture('phone')
const numberFlow = capture('number', 'A number, please.')

engineCases('capture: entering waits for the value', [
  {
    name: 'a capture state says its messages and waits; its next is not followed yet',
    flow: textFlow,
    input: start,
    messages: says('Your answer?'),
    events: [],
    state_after: { state: 'ask', status: 'bot', waiting: 'capture' },
  },
])

engineCases('capture as text', [
  { name: 'stores the trimmed text and goes to next', flow: textFlow, before: [], input: text('  Jane Doe \n'), ...captured('Jane Doe') },
  { name: 'a blank text is refused with the default retry', flow: textFlow, before: [], input: text('   '), ...refused('text', 'Please type your answer.') },
  { name: 'a picked button stores its title', flow: textFlow, before: [], input: button('x', 'Maybe'), ...captured('Maybe') },
])

engineCases('capture as email', [
  { name: 'a valid address is stored with its domain lowercased', flow: emailFlow, before: [], input: text(' Jane.Doe@ACME.io '), ...captured('Jane.Doe@acme.io') },
  { name: 'a malformed address gets the retry text and the bot waits again', flow: emailFlow, before: [], input: text('jane at acme'), ...refused('email', 'That does not look like an email.') },
  { name: 'a synthetic address (example.com) is refused', flow: emailFlow, before: [], input: text('jane@example.com'), ...refused('email', 'That does not look like an email.') },
  { name: 'a disposable address is refused', flow: emailFlow, before: [], input: text('jane@mailinator.com'), ...refused('email', 'That does not look like an email.') },
  { name: 'after a retry a valid address is taken', flow: emailFlow, before: [text('nope'), text('still nope')], input: text('jane@acme.io'), ...captured('jane@acme.io') },
  {
    name: 'without retry, a typo is told to be one',
    flow: capture('email'),
    before: [],
    input: text('jane@acme'),
    messages: says('That does not look like an e-mail address. Please check it and try again.'),
  },
  {
    name: 'without retry, an example address is told it never receives mail',
    flow: capture('email'),
    before: [],
    input: text('jane@example.com'),
    messages: says('That address is only for examples and never receives mail. Please give an address you read.'),
  },
  {
    name: 'without retry, a throwaway inbox is told it is not accepted',
    flow: capture('email'),
    before: [],
    input: text('jane@mailinator.com'),
    messages: says('Throwaway inboxes are not accepted here. Please give an address you will keep reading.'),
  },
])

engineCases('capture as phone', [
  { name: 'an international number is stored as E.164', flow: phoneFlow, before: [], input: text('+44 20 7946 0958'), ...captured('+442079460958') },
  { name: 'a local number uses the default country', flow: phoneFlow, before: [], input: text('020 7946 0958'), context: { contact: {}, defaultCountry: 'GB' }, ...captured('+442079460958') },
  {
    name: 'a local number without a default country is refused with the default retry',
    flow: phoneFlow,
    before: [],
    input: text('020 7946 0958'),
    ...refused('phone', 'That does not look like a phone number. Please try again, starting with + and the country code.'),
  },
  { name: 'a number that is not valid is refused', flow: phoneFlow, before: [], input: text('+1 555 555 5555'), ...refused('phone', 'That does not look like a phone number. Please try again, starting with + and the country code.') },
])

describe('capture as phone: every spelling of one number is one value', () => {
  const spellings: [string, string | undefined][] = [
    ['+44 20 7946 0958', undefined],
    ['+44 (0)20 7946 0958', 'US'],
    ['0044 20 7946 0958', undefined],
    ['020 7946 0958', 'GB'],
    ['020-7946-0958', 'GB'],
    ['(020) 7946 0958', 'GB'],
  ]
  for (const [spelling, country] of spellings) {
    test(`${spelling} with default country ${country ?? 'none'} is captured as +442079460958`, () => {
      const result = converse(phoneFlow, [start, text(spelling)], { contact: {}, defaultCountry: country })
      expect(result.state.variables).toEqual({ answer: '+442079460958' })
    })
  }
})

engineCases('capture as number', [
  { name: 'a whole number is stored as a JSON number', flow: numberFlow, before: [], input: text('42'), ...captured(42) },
  { name: 'a decimal comma is read as a decimal', flow: numberFlow, before: [], input: text('3,5'), ...captured(3.5) },
  { name: 'grouped thousands are read whole', flow: numberFlow, before: [], input: text('1,500'), ...captured(1500) },
  { name: 'a negative number is kept negative', flow: numberFlow, before: [], input: text('-12.25'), ...captured(-12.25) },
  { name: 'words are refused with the retry text', flow: numberFlow, before: [], input: text('forty two'), ...refused('number', 'A number, please.') },
  { name: 'a number with a unit is refused', flow: numberFlow, before: [], input: text('42 kg'), ...refused('number', 'A number, please.') },
])

engineCases('capture keeps what was there', [
  {
    name: 'a capture after another keeps both values',
    flow: flowOf({
      version: 1,
      start: 'name',
      variables: { name: { type: 'string' }, age: { type: 'number' }, vip: { type: 'boolean', default: false } },
      states: {
        name: { say: [{ text: 'Name?' }], capture: { var: 'name', as: 'text' }, next: 'age' },
        age: { say: [{ text: 'Age?' }], capture: { var: 'age', as: 'number' }, next: 'done' },
        done: { say: [{ text: '{{name}} is {{age}} (vip: {{vip}})' }], end: true },
      },
    }),
    before: [text('Ada')],
    input: text('36'),
    messages: says('Ada is 36 (vip: false)'),
    events: [
      { type: 'captured', var: 'age', value: 36 },
      { type: 'closed', state: 'done', reason: 'end' },
    ],
    state_after: { variables: { name: 'Ada', age: 36, vip: false } },
  },
  {
    name: 'a refused value shows the state’s buttons again after the retry',
    flow: flowOf({
      version: 1,
      start: 'ask',
      variables: { size: { type: 'number' } },
      states: {
        ask: { say: [{ text: 'How many seats?', buttons: [{ id: 'ten', title: '10' }, { id: 'fifty', title: '50' }] }], capture: { var: 'size', as: 'number' }, next: 'ok' },
        ok: { say: [{ text: '{{size}} seats' }], end: true },
      },
    }),
    before: [],
    input: text('lots'),
    messages: [...says('Please answer with a number.'), { kind: 'buttons', text: 'How many seats?', buttons: [{ id: 'ten', title: '10' }, { id: 'fifty', title: '50' }] }],
  },
  {
    name: 'a picked button in a number capture stores its title as the number',
    flow: flowOf({
      version: 1,
      start: 'ask',
      variables: { size: { type: 'number' } },
      states: {
        ask: { say: [{ text: 'How many seats?', buttons: [{ id: 'ten', title: '10' }] }], capture: { var: 'size', as: 'number' }, next: 'ok' },
        ok: { say: [{ text: '{{size}} seats' }], end: true },
      },
    }),
    before: [],
    input: button('ten', '10'),
    messages: says('10 seats'),
    state_after: { variables: { size: 10 } },
  },
])
