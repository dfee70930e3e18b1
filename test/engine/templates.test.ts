import { describe, expect, test } from 'bun:test'
import { renderTemplate } from '../../server/engine/render-template.ts'
import { engineCases, flowOf, start, text } from './engine-cases.ts'

describe('renderTemplate', () => {
  const values = { variables: { name: 'Ada', seats: 12, vip: true, empty: '' }, contact: { plan: 'pro', first_name: 'Ada L.', logins: 3 } }

  test.each([
    ['Hi {{name}}', 'Hi Ada'],
    ['Hi {{ name }}!', 'Hi Ada!'],
    ['Hi {{\tname\n}}', 'Hi Ada'],
    ['{{seats}} seats, vip {{vip}}', '12 seats, vip true'],
    ['Plan {{contact.plan}}, {{ contact.first_name }}, {{contact.logins}} logins', 'Plan pro, Ada L., 3 logins'],
    ['Hi {{unknown}}.', 'Hi .'],
    ['Hi {{contact.unknown}}.', 'Hi .'],
    ['Hi {{other.plan}}.', 'Hi .'],
    ['Hi {{empty}}.', 'Hi .'],
    ['{{constructor}}{{__proto__}}{{toString}}{{contact.constructor}}', ''],
    ['{{name}}{{name}}', 'AdaAda'],
    ['Literal {{ two words }} and {{}} and {single} stay', 'Literal {{ two words }} and {{}} and {single} stay'],
    ['No templates at all', 'No templates at all'],
    ['Hello {{contact.first_name|there}}!', 'Hello Ada L.!'],
    ['Hello {{contact.nickname|there}}!', 'Hello there!'],
    ['Hello {{ contact.nickname | dear friend }}!', 'Hello dear friend!'],
    ['Hi {{empty|you}}, {{unknown|}}.', 'Hi you, .'],
    ['{{seats|many}} seats', '12 seats'],
    ['{{unknown|a {b} c}} stays', '{{unknown|a {b} c}} stays'],
  ])('%p becomes %p', (template, expected) => {
    expect(renderTemplate(template, values)).toBe(expected)
  })

  test('a value is inserted as is, never read as a template itself', () => {
    expect(renderTemplate('{{name}}', { variables: { name: '{{secret}}', secret: 'x' }, contact: {} })).toBe('{{secret}}')
  })

  test('a text cut once fills each time with the values of that time, past the number of texts kept too', () => {
    const texts = Array.from({ length: 5000 }, (_, i) => `#${i} {{name}} {{contact.plan|free}}`)
    for (const [round, name] of ['Ada', 'Grace'].entries()) {
      for (const [i, template] of texts.entries()) {
        const contact: Record<string, string> = i % 2 === 0 ? { plan: `p${round}` } : {}
        expect(renderTemplate(template, { variables: { name }, contact })).toBe(`#${i} ${name} ${i % 2 === 0 ? `p${round}` : 'free'}`)
      }
    }
  })

})

const everywhere = flowOf({
  version: 1,
  start: 'ask',
  fallback: 'Sorry {{name}}, once more?',
  variables: { name: { type: 'string' }, count: { type: 'number', default: 2 } },
  states: {
    ask: { say: [{ text: 'Your name?' }], capture: { var: 'name', as: 'text', retry: 'A name, {{contact.first_name}}?' }, next: 'show' },
    show: {
      say: [
        { text: 'Hi {{ name }}, plan {{contact.plan}}{{unknown}}' },
        { text: '{{name}}, pick', buttons: [{ id: 'b', title: 'For {{name}}' }] },
        {
          text: 'List for {{name}}',
          button: 'Open {{count}}',
          sections: [{ title: 'For {{contact.plan}}', rows: [{ id: 'r', title: 'Row {{name}}', description: 'About {{name}}' }] }],
        },
        { media: { type: 'file', url: 'https://cdn.acme.io/{{name}}.pdf', caption: 'For {{name}}', filename: '{{name}}.pdf' } },
        { meta_flow: { flow_id: 'form_{{name}}', cta: 'Open, {{name}}' } },
        { text: '{{unknown}}' },
      ],
      on: [{ button: 'b', to: 'human' }],
    },
    human: { handoff: { text: 'Wait here, {{name}}.' } },
  },
})

const context = { contact: { plan: 'pro', first_name: 'Ada' } }

engineCases('templates in every text a person reads', [
  {
    name: 'texts, button titles, list texts and labels, section and row titles, descriptions, captions, file names and calls to action are filled; ids, URLs and flow ids are not; a text that comes out blank is not sent',
    flow: everywhere,
    context,
    before: [],
    input: text('Grace'),
    messages: [
      { kind: 'text', text: 'Hi Grace, plan pro' },
      { kind: 'buttons', text: 'Grace, pick', buttons: [{ id: 'b', title: 'For Grace' }] },
      { kind: 'list', text: 'List for Grace', button: 'Open 2', sections: [{ title: 'For pro', rows: [{ id: 'r', title: 'Row Grace', description: 'About Grace' }] }] },
      { kind: 'media', media: { type: 'file', url: 'https://cdn.acme.io/{{name}}.pdf', caption: 'For Grace', filename: 'Grace.pdf' } },
      { kind: 'meta_flow', flow_id: 'form_{{name}}', cta: 'Open, Grace' },
    ],
  },
  { name: 'a retry text is filled', flow: everywhere, context, before: [], input: text(' '), messages: [{ kind: 'text', text: 'A name, Ada?' }] },
  {
    name: 'the fallback is filled and the filled buttons are shown again as they were sent',
    flow: everywhere,
    context,
    before: [text('Grace')],
    input: text('what?'),
    messages: [
      { kind: 'text', text: 'Sorry Grace, once more?' },
      { kind: 'list', text: 'List for Grace', button: 'Open 2', sections: [{ title: 'For pro', rows: [{ id: 'r', title: 'Row Grace', description: 'About Grace' }] }] },
    ],
  },
  { name: 'a filled button title counts as a reply when typed', flow: everywhere, context, before: [text('Grace')], input: text('for grace'), messages: [{ kind: 'text', text: 'Wait here, Grace.' }] },
  {
    name: 'the handoff text is filled',
    flow: everywhere,
    context,
    before: [text('Grace')],
    input: { kind: 'reply', reply_to: 'button', id: 'b', title: 'For Grace' },
    messages: [{ kind: 'text', text: 'Wait here, Grace.' }],
    events: [{ type: 'handoff', state: 'human' }],
  },
  {
    name: 'declared defaults are there from the start',
    flow: flowOf({ version: 1, start: 's', variables: { n: { type: 'number', default: 0 }, ok: { type: 'boolean', default: true }, who: { type: 'string', default: 'guest' }, unset: { type: 'string' } }, states: { s: { say: [{ text: '{{who}} {{n}} {{ok}} [{{unset}}]' }], end: true } } }),
    input: start,
    messages: [{ kind: 'text', text: 'guest 0 true []' }],
    state_after: { variables: { n: 0, ok: true, who: 'guest' } },
  },
])

engineCases('names Object.prototype knows are plain variables', [
  {
    name: 'a variable named __proto__ is captured, stored and filled like any other',
    flow: flowOf(
      JSON.parse(
        '{"version":1,"start":"a","variables":{"__proto__":{"type":"string","default":"d"}},"states":{"a":{"say":[{"text":"was {{__proto__}}"}],"capture":{"var":"__proto__","as":"text"},"next":"b"},"b":{"say":[{"text":"now {{ __proto__ }}"}],"end":true}}}',
      ),
    ),
    before: [],
    input: text('x'),
    messages: [{ kind: 'text', text: 'now x' }],
    events: [
      { type: 'captured', var: '__proto__', value: 'x' },
      { type: 'closed', state: 'b', reason: 'end' },
    ],
  },
])
