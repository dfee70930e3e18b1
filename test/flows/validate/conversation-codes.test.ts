import { describe, expect, test } from 'bun:test'
import {
  CONVERSATION_ERROR_CODES,
  CONVERSATION_WARNING_CODES,
  validateConversationFlow,
} from '../../../server/flows/validate/conversation.ts'
import {
  CONVERSATION_FLOW_ID,
  DRAFT_META_FLOW_ID,
  type Flow,
  references,
  validFlow,
  variant,
} from './conversation-fixture.ts'

interface Rule {
  code: string
  /** What the case shows. */
  name: string
  breaks: (flow: Flow) => void
  path: string
  /** A near miss that must not be reported (default: the valid flow itself). */
  fine?: (flow: Flow) => void
}

const say = (flow: Flow, state: string) => flow.states[state].say
const buttons = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `Choice ${i}` }))
const rows = (n: number, prefix = 'r') => Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }))

const errors: Rule[] = [
  { code: 'unknown_key', name: 'a key the format does not have', breaks: (f) => (f.states.welcome.colour = 'red'), path: '/states/welcome/colour' },
  { code: 'unknown_key', name: 'a transition with two conditions', breaks: (f) => (f.states.welcome.on[0].match = 'x'), path: '/states/welcome/on/0/match' },
  { code: 'unknown_key', name: 'a message of two kinds', breaks: (f) => (say(f, 'welcome')[1].sections = []), path: '/states/welcome/say/1/sections' },
  { code: 'wrong_type', name: 'a text that is not a string', breaks: (f) => (say(f, 'thanks')[0].text = 5), path: '/states/thanks/say/0/text', fine: (f) => (say(f, 'thanks')[0].text = '5') },
  { code: 'wrong_type', name: 'a message that is not an object', breaks: (f) => say(f, 'thanks').push('hello'), path: '/states/thanks/say/1' },
  { code: 'wrong_type', name: 'states that are not an object', breaks: (f) => (f.states = []), path: '/states' },
  { code: 'wrong_type', name: 'a default of another type than its variable', breaks: (f) => (f.variables.age.default = '0'), path: '/variables/age/default' },
  { code: 'missing_field', name: 'no version', breaks: (f) => delete f.version, path: '/version' },
  { code: 'missing_field', name: 'a button without a title', breaks: (f) => delete say(f, 'welcome')[1].buttons[0].title, path: '/states/welcome/say/1/buttons/0/title' },
  { code: 'missing_field', name: 'capture without next', breaks: (f) => delete f.states.ask_email.next, path: '/states/ask_email/next' },
  { code: 'missing_field', name: 'a branch without an else at the end', breaks: (f) => f.states.route.branch.pop(), path: '/states/route/branch' },
  { code: 'missing_field', name: 'a branch entry testing a variable for nothing', breaks: (f) => delete f.states.route.branch[0].set, path: '/states/route/branch/0/equals' },
  { code: 'missing_field', name: 'a branch entry with equals about nothing', breaks: (f) => delete f.states.route.branch[1].contact, path: '/states/route/branch/1/var' },
  { code: 'unknown_key', name: 'a branch entry testing a variable and a contact detail', breaks: (f) => (f.states.route.branch[0].contact = 'plan'), path: '/states/route/branch/0/contact' },
  { code: 'unknown_key', name: 'a branch entry with equals and set', breaks: (f) => (f.states.route.branch[1].set = true), path: '/states/route/branch/1/set' },
  { code: 'unknown_key', name: 'a layout entry with a key other than x and y', breaks: (f) => (f.layout.states.welcome.w = 3), path: '/layout/states/welcome/w' },
  { code: 'wrong_type', name: 'a layout position that is not a number', breaks: (f) => (f.layout.states.welcome.x = '0'), path: '/layout/states/welcome/x' },
  { code: 'unknown_state', name: 'a branch going to no state', breaks: (f) => (f.states.route.branch[4].to = 'welcom'), path: '/states/route/branch/4/to' },
  { code: 'undeclared_variable', name: 'a branch testing an undeclared variable', breaks: (f) => (f.states.route.branch[0].var = 'mail'), path: '/states/route/branch/0/var' },
  {
    code: 'endless_loop',
    name: 'a branch entry leading back into its own chain',
    breaks: (f) => (f.states.brochure.next = 'route') && (f.states.route.branch[0].to = 'brochure'),
    path: '/states/brochure/next',
  },
  { code: 'unknown_key', name: 'opening hours with a variable in one entry', breaks: (f) => (f.states.route.branch[2].var = 'age'), path: '/states/route/branch/2/var' },
  { code: 'invalid_value', name: 'opening hours in no time zone', breaks: (f) => (f.states.route.branch[2].hours.timezone = 'Mars/Olympus'), path: '/states/route/branch/2/hours/timezone' },
  { code: 'invalid_value', name: 'opening hours ending before they start', breaks: (f) => (f.states.route.branch[2].hours.until = '08:00'), path: '/states/route/branch/2/hours/until' },
  { code: 'invalid_value', name: 'opening hours on a day that is not one', breaks: (f) => (f.states.route.branch[2].hours.days = ['monday']), path: '/states/route/branch/2/hours/days/0' },
  { code: 'unknown_key', name: 'a label condition with a variable in one entry', breaks: (f) => (f.states.route.branch[0].label = 'VIP'), path: '/states/route/branch/0/var' },
  { code: 'unknown_key', name: 'business hours with a label in one entry', breaks: (f) => Object.assign(f.states.route.branch[0], { business_hours: true, label: 'VIP' }), path: '/states/route/branch/0/business_hours' },
  { code: 'wrong_type', name: 'business hours that are not true or false', breaks: (f) => (f.states.route.branch[2] = { business_hours: 'yes', to: 'human' }), path: '/states/route/branch/2/business_hours' },
  { code: 'invalid_value', name: 'a label name with a control character', breaks: (f) => (f.states.thanks.labels = { add: ['a\u001bb'] }), path: '/states/thanks/labels/add/0' },
  { code: 'unknown_key', name: 'labels with an unknown key', breaks: (f) => (f.states.thanks.labels = { set: ['x'] }), path: '/states/thanks/labels/set' },
  { code: 'several_ways_out', name: 'a branch beside next', breaks: (f) => (f.states.route.next = 'thanks'), path: '/states/route' },
  { code: 'invalid_value', name: 'an unknown version', breaks: (f) => (f.version = 2), path: '/version' },
  { code: 'invalid_value', name: 'an unknown capture kind', breaks: (f) => (f.states.ask_email.capture.as = 'date'), path: '/states/ask_email/capture/as' },
  { code: 'invalid_value', name: 'end: false', breaks: (f) => (f.states.thanks.end = false), path: '/states/thanks/end' },
  { code: 'invalid_value', name: 'a media URL that is not http(s)', breaks: (f) => (say(f, 'brochure')[0].media.url = 'ftp://x/y'), path: '/states/brochure/say/0/media/url' },
  { code: 'invalid_value', name: 'no states at all', breaks: (f) => (f.states = {}), path: '/states' },
  {
    code: 'invalid_state_name',
    name: 'a state name with a space',
    breaks: (f) => (f.states['thank you'] = { end: true }),
    path: '/states/thank you',
    fine: (f) => (f.states['thank-you_2'] = { end: true }),
  },
  { code: 'invalid_state_name', name: 'a state name with a slash, escaped in the pointer', breaks: (f) => (f.states['a/b'] = { end: true }), path: '/states/a~1b' },
  {
    code: 'invalid_variable_name',
    name: 'a variable name with a dash',
    breaks: (f) => (f.variables['e-mail'] = { type: 'string' }),
    path: '/variables/e-mail',
    fine: (f) => (f.variables.e_mail = { type: 'string' }),
  },
  { code: 'unknown_state', name: 'start naming no state', breaks: (f) => (f.start = 'hello'), path: '/start' },
  { code: 'unknown_state', name: 'a transition to no state', breaks: (f) => (f.states.welcome.on[4].to = 'nowhere'), path: '/states/welcome/on/4/to' },
  { code: 'unknown_state', name: 'next naming no state', breaks: (f) => (f.states.ask_email.next = 'thank'), path: '/states/ask_email/next' },
  { code: 'unknown_state', name: 'handoff resuming in no state', breaks: (f) => (f.states.human.handoff.resume = 'welcom'), path: '/states/human/handoff/resume' },
  { code: 'unknown_state', name: 'an agent exit to no state', breaks: (f) => (f.states.billing_agent.agent.exits[0].to = 'bye'), path: '/states/billing_agent/agent/exits/0/to' },
  {
    code: 'unknown_state',
    name: "an agent's on_error naming no state",
    breaks: (f) => (f.states.billing_agent.agent.on_error = 'oops'),
    path: '/states/billing_agent/agent/on_error',
    fine: (f) => (f.states.billing_agent.agent.on_error = 'human'),
  },
  {
    code: 'unknown_state',
    name: "an agent's on_limit naming no state",
    breaks: (f) => Object.assign(f.states.billing_agent.agent, { max_turns: 5, on_limit: 'limit' }),
    path: '/states/billing_agent/agent/on_limit',
    fine: (f) => Object.assign(f.states.billing_agent.agent, { max_turns: 5, on_limit: 'human' }),
  },
  { code: 'no_way_out', name: 'a state that neither ends, moves on nor waits', breaks: (f) => delete f.states.thanks.end, path: '/states/thanks' },
  {
    code: 'several_ways_out',
    name: 'a state that both ends and moves on',
    breaks: (f) => (f.states.thanks.next = 'welcome'),
    path: '/states/thanks',
    fine: (f) => delete f.states.thanks.end && (f.states.thanks.next = 'welcome'),
  },
  { code: 'several_ways_out', name: 'next together with on', breaks: (f) => (f.states.welcome.next = 'thanks'), path: '/states/welcome' },
  {
    code: 'endless_loop',
    name: 'two states moving on to each other',
    breaks: (f) => {
      f.states.brochure.next = 'again'
      f.states.again = { say: [{ text: 'Once more' }], next: 'brochure' }
    },
    path: '/states/brochure/next',
    fine: (f) => {
      f.states.brochure.next = 'again'
      f.states.again = { say: [{ text: 'Back to the start' }], next: 'welcome' }
    },
  },
  {
    code: 'endless_loop',
    name: 'a state moving on to itself',
    breaks: (f) => (f.states.thanks = { say: [{ text: 'Hi' }], next: 'thanks' }),
    path: '/states/thanks/next',
  },
  {
    code: 'invalid_regex',
    name: 'a regex that does not compile',
    breaks: (f) => (f.states.welcome.on[2].match = '(?i)^(my age$'),
    path: '/states/welcome/on/2/match',
  },
  {
    code: 'invalid_regex',
    name: 'an inline flag other than a leading (?i)',
    breaks: (f) => (f.states.welcome.on[2].match = 'my (?i)age'),
    path: '/states/welcome/on/2/match',
    fine: (f) => (f.states.welcome.on[2].match = '(?i)\\bmy\\s+age\\b'),
  },
  {
    code: 'unsupported_regex',
    name: 'a regex with a lookahead, which the linear-time matcher cannot run',
    breaks: (f) => (f.states.welcome.on[2].match = '(?i)^my age(?! is)'),
    path: '/states/welcome/on/2/match',
    fine: (f) => (f.states.welcome.on[2].match = '(?i)^my age( is)?$'),
  },
  {
    code: 'unsupported_regex',
    name: 'a regex with a backreference',
    breaks: (f) => (f.states.welcome.on[2].match = '^(\\w)\\1$'),
    path: '/states/welcome/on/2/match',
  },
  {
    code: 'unsafe_regex',
    name: 'a regex too large to run on every message',
    breaks: (f) => (f.states.welcome.on[2].match = '^[ab]{400}$'),
    path: '/states/welcome/on/2/match',
    // Nested repetition, once refused, runs in linear time now.
    fine: (f) => (f.states.welcome.on[2].match = '^(a+)+$'),
  },
  {
    code: 'duplicate_reply_id',
    name: 'two buttons with one id',
    breaks: (f) => (say(f, 'welcome')[1].buttons[1].id = 'sales'),
    path: '/states/welcome/say/1/buttons/1/id',
    fine: (f) => say(f, 'welcome').push({ text: 'Or', buttons: [{ id: 'sales', title: 'Sales again' }] }),
  },
  {
    code: 'duplicate_reply_id',
    name: 'two list rows with one id, in different sections',
    breaks: (f) => (say(f, 'menu')[0].sections[1].rows[0].id = 'billing'),
    path: '/states/menu/say/0/sections/1/rows/0/id',
  },
  {
    code: 'undeclared_variable',
    name: 'a template naming no variable',
    breaks: (f) => (say(f, 'thanks')[0].text = 'We will write to {{emial}}'),
    path: '/states/thanks/say/0/text',
    fine: (f) => (say(f, 'thanks')[0].text = 'Bye {{ contact.first_name }}, {{email}}'),
  },
  { code: 'undeclared_variable', name: 'a template in a button title', breaks: (f) => (say(f, 'welcome')[1].buttons[0].title = '{{deal}}'), path: '/states/welcome/say/1/buttons/0/title' },
  { code: 'undeclared_variable', name: 'a template in the fallback', breaks: (f) => (f.fallback = 'Sorry {{name}}'), path: '/fallback' },
  {
    code: 'undeclared_variable',
    name: 'a dotted template other than contact.KEY',
    breaks: (f) => (say(f, 'brochure')[0].media.filename = '{{visitor.name}}.pdf'),
    path: '/states/brochure/say/0/media/filename',
    fine: (f) => (say(f, 'brochure')[0].media.filename = '{{ not a template }}.pdf'),
  },
  { code: 'undeclared_variable', name: 'capture into no variable', breaks: (f) => (f.states.ask_email.capture.var = 'mail'), path: '/states/ask_email/capture/var' },
  {
    code: 'undeclared_variable',
    name: 'an agent exit capturing into no variable',
    breaks: (f) => (f.states.billing_agent.agent.exits[0].capture = ['email', 'invoice']),
    path: '/states/billing_agent/agent/exits/0/capture/1',
    fine: (f) => (f.states.billing_agent.agent.exits[0].capture = ['email']),
  },
  {
    code: 'undeclared_variable',
    name: "a template in an agent's instructions",
    breaks: (f) => (f.states.billing_agent.agent.instructions = 'Help {{customer}}.'),
    path: '/states/billing_agent/agent/instructions',
    fine: (f) => (f.states.billing_agent.agent.instructions = 'Help {{contact.first_name|them}} about {{email}}.'),
  },
  {
    code: 'missing_field',
    name: 'max_turns without on_limit',
    breaks: (f) => (f.states.billing_agent.agent.max_turns = 3),
    path: '/states/billing_agent/agent/on_limit',
  },
  {
    code: 'capture_type_mismatch',
    name: 'an email captured into a number variable',
    breaks: (f) => (f.states.ask_email.capture.var = 'age'),
    path: '/states/ask_email/capture/as',
    fine: (f) => (f.states.ask_age.capture.var = 'email'),
  },
  {
    code: 'unknown_meta_flow',
    name: 'a meta_flow naming no flow',
    breaks: (f) => (say(f, 'brochure')[1].meta_flow.flow_id = '01JD3Q3M9Z5W6X7Y8Z9A0B1C2X'),
    path: '/states/brochure/say/1/meta_flow/flow_id',
  },
  {
    code: 'unknown_meta_flow',
    name: 'a meta_flow naming a conversation flow',
    breaks: (f) => (say(f, 'brochure')[1].meta_flow.flow_id = CONVERSATION_FLOW_ID),
    path: '/states/brochure/say/1/meta_flow/flow_id',
  },
  {
    code: 'unknown_tool_integration',
    name: 'an agent tool naming no mcp integration',
    breaks: (f) => (f.states.billing_agent.agent.tools[0].integration_id = '01JD3Q3M9Z5W6X7Y8Z9A0B1C2X'),
    path: '/states/billing_agent/agent/tools/0/integration_id',
  },
]

const warnings: Rule[] = [
  { code: 'unreachable_transition', name: 'a branch entry after the else', breaks: (f) => f.states.route.branch.push({ var: 'email', set: false, to: 'menu' }), path: '/states/route/branch/5' },
  {
    code: 'unreachable_state',
    name: 'a state nothing leads to',
    breaks: (f) => (f.states.orphan = { end: true }),
    path: '/states/orphan',
    fine: (f) => {
      f.states.orphan = { end: true }
      f.states.welcome.on.splice(4, 0, { equals: 'bye', to: 'orphan' })
    },
  },
  {
    code: 'unreachable_state',
    name: 'a state reached only from an unreachable one',
    breaks: (f) => {
      f.states.orphan = { next: 'orphan_end' }
      f.states.orphan_end = { end: true }
    },
    path: '/states/orphan_end',
  },
  {
    code: 'unreachable_transition',
    name: 'a transition after the unconditional one',
    breaks: (f) => f.states.welcome.on.push({ equals: 'bye', to: 'thanks' }),
    path: '/states/welcome/on/5',
  },
  {
    code: 'unreachable_transition',
    name: 'a transition with the same condition as an earlier one',
    breaks: (f) => f.states.welcome.on.splice(1, 0, { button: 'sales', to: 'thanks' }),
    path: '/states/welcome/on/1',
  },
  {
    code: 'unreachable_transition',
    name: 'equals compared trimmed and ignoring case',
    breaks: (f) => f.states.welcome.on.splice(4, 0, { equals: ' HUMAN ', to: 'thanks' }),
    path: '/states/welcome/on/4',
    fine: (f) => f.states.welcome.on.splice(4, 0, { equals: 'humans', to: 'thanks' }),
  },
  { code: 'no_fallback', name: 'an on list without an unconditional transition', breaks: (f) => f.states.welcome.on.pop(), path: '/states/welcome/on' },
  {
    code: 'unknown_reply_id',
    name: 'a button transition no shown button has',
    breaks: (f) => (f.states.welcome.on[0].button = 'sale'),
    path: '/states/welcome/on/0/button',
    fine: (f) => {
      // The buttons are shown by a state that moves on at once into the one that waits.
      f.states.welcome = { say: say(f, 'welcome'), next: 'pick' }
      f.states.pick = { on: validFlow().states.welcome.on }
    },
  },
  { code: 'unknown_reply_id', name: 'a row transition no shown row has', breaks: (f) => (f.states.menu.on[0].row = 'sales'), path: '/states/menu/on/0/row' },
  {
    code: 'unused_variable',
    name: 'a variable never captured nor used',
    breaks: (f) => (f.variables.plan = { type: 'string' }),
    path: '/variables/plan',
    fine: (f) => {
      f.variables.plan = { type: 'string', default: 'free' }
      say(f, 'thanks')[0].text += ' Plan: {{plan}}'
    },
  },
  {
    code: 'unpublished_meta_flow',
    name: 'a meta flow that is not published yet',
    breaks: (f) => (say(f, 'brochure')[1].meta_flow.flow_id = DRAFT_META_FLOW_ID),
    path: '/states/brochure/say/1/meta_flow/flow_id',
  },
  {
    code: 'too_many_buttons',
    name: 'four buttons',
    breaks: (f) => (say(f, 'welcome')[1].buttons = [...buttons(3), { id: 'sales', title: 'Sales' }]),
    path: '/states/welcome/say/1/buttons',
    fine: (f) => (say(f, 'welcome')[1].buttons = [...buttons(2), { id: 'sales', title: 'Sales' }]),
  },
  {
    code: 'button_title_too_long',
    name: 'a button title of 21 characters',
    breaks: (f) => (say(f, 'welcome')[1].buttons[0].title = 'x'.repeat(21)),
    path: '/states/welcome/say/1/buttons/0/title',
    fine: (f) => (say(f, 'welcome')[1].buttons[0].title = '🎉'.repeat(20)),
  },
  { code: 'button_title_too_long', name: 'a list button label of 21 characters', breaks: (f) => (say(f, 'menu')[0].button = 'y'.repeat(21)), path: '/states/menu/say/0/button' },
  {
    code: 'too_many_list_rows',
    name: 'eleven rows over two sections',
    breaks: (f) => (say(f, 'menu')[0].sections[1].rows.push(...rows(9))),
    path: '/states/menu/say/0/sections',
    fine: (f) => (say(f, 'menu')[0].sections[1].rows.push(...rows(8))),
  },
  {
    code: 'row_title_too_long',
    name: 'a row title of 25 characters',
    breaks: (f) => (say(f, 'menu')[0].sections[0].rows[0].title = 'z'.repeat(25)),
    path: '/states/menu/say/0/sections/0/rows/0/title',
    fine: (f) => (say(f, 'menu')[0].sections[0].rows[0].title = 'z'.repeat(24)),
  },
  {
    code: 'text_too_long',
    name: 'a text message over 4096 characters',
    breaks: (f) => (say(f, 'thanks')[0].text = 'a'.repeat(4097)),
    path: '/states/thanks/say/0/text',
    fine: (f) => (say(f, 'thanks')[0].text = 'a'.repeat(4096)),
  },
  {
    code: 'text_too_long',
    name: 'the text of a buttons message over 1024 characters',
    breaks: (f) => (say(f, 'welcome')[1].text = 'a'.repeat(1025)),
    path: '/states/welcome/say/1/text',
    fine: (f) => (say(f, 'welcome')[1].text = 'a'.repeat(1024)),
  },
  { code: 'text_too_long', name: 'a media caption over 1024 characters', breaks: (f) => (say(f, 'brochure')[0].media.caption = 'c'.repeat(1025)), path: '/states/brochure/say/0/media/caption' },
]

describe('the conversation validator', () => {
  test('the reference flow, which uses every feature, has no error and no warning', () => {
    expect(validateConversationFlow(validFlow(), references)).toEqual({ errors: [], warnings: [] })
  })

  for (const [kind, rules] of [['error', errors], ['warning', warnings]] as const) {
    describe(`${kind}s`, () => {
      for (const rule of rules) {
        test(`${rule.code}: ${rule.name} is reported at ${rule.path}`, () => {
          const report = validateConversationFlow(variant(rule.breaks), references)
          const found = kind === 'error' ? report.errors : report.warnings
          expect(found).toContainEqual({ path: rule.path, code: rule.code, message: expect.any(String) })
          if (kind === 'warning') expect(report.errors).toEqual([])
        })
        test(`${rule.code}: not reported for a near miss of "${rule.name}"`, () => {
          const report = validateConversationFlow(variant(rule.fine ?? (() => {})), references)
          expect([...report.errors, ...report.warnings].map((issue) => issue.code)).not.toContain(rule.code)
          expect(report.errors).toEqual([])
        })
      }
    })
  }

  test('every documented code has a case here that triggers it', () => {
    expect([...new Set(errors.map((rule) => rule.code))].sort()).toEqual([...CONVERSATION_ERROR_CODES].sort())
    expect([...new Set(warnings.map((rule) => rule.code))].sort()).toEqual([...CONVERSATION_WARNING_CODES].sort())
  })

  test('a capture type mismatch names what the capture stores', () => {
    const report = validateConversationFlow(variant((f) => (f.states.ask_email.capture.var = 'age')), references)
    expect(report.errors).toContainEqual({
      path: '/states/ask_email/capture/as',
      code: 'capture_type_mismatch',
      message: 'captures an e-mail address into "age", which is declared as number',
    })
  })

  test('every entry carries a path, a code and a non-empty message', () => {
    const report = validateConversationFlow(variant((f) => (f.states.welcome.on[0].to = 'nowhere')), references)
    expect(report.errors).toEqual([
      { path: '/states/welcome/on/0/to', code: 'unknown_state', message: expect.stringContaining('"nowhere" names no state') },
    ])
  })
})
