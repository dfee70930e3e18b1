import { describe, expect, test } from 'bun:test'
import { checkField, embedSnippet, formValues, patchOf, shownFields, unsavedFields, WIDGET_FIELDS } from '../../../app/src/console/widget/widget-form.ts'

const field = (key: string) => WIDGET_FIELDS.find((spec) => spec.key === key) as (typeof WIDGET_FIELDS)[number]
const stored = { greeting_message: 'Hi!', config: { allowed_domains: ['example.com'], default_country: null, widget_config: { bot_display_name: 'Assistant', primary_color: '#0066ff', width: 380, allowed_paths: null } } }

describe("the widget form's limits, as the server has them", () => {
  test.each([
    ['bot_display_name', '', 'must not be empty'],
    ['bot_display_name', 'x'.repeat(61), 'at most 60 characters (now 61)'],
    ['primary_color', 'blue', 'must be a hex colour like #0066ff or #06f'],
    ['width', '279', 'must be from 280 to 600'],
    ['width', '601', 'must be from 280 to 600'],
    ['width', '1e3', 'must be a number from 280 to 600'],
    ['font_size', '25', 'must be from 12 to 24'],
    ['height', '399', 'must be from 400 to 800'],
    ['allowed_paths', '/shop/*\ncontact', '"contact" must start with / and may use * only as a final /*'],
    ['allowed_paths', '/a*b', '"/a*b" must start with / and may use * only as a final /*'],
    ['allowed_domains', 'https://example.com', '"https://example.com" must be a host name like example.com or *.example.com, without scheme or path'],
    ['bot_avatar_url', 'http://example.com/a.png', 'must be an https:// address of an image'],
    ['identity_secret', 'short', 'must have 16 to 256 characters (now 5)'],
    ['default_country', 'DEU', 'must be two letters, such as DE or US'],
    ['position', 'top-left', 'must be one of bottom-right, bottom-left'],
  ])('%s refuses %j: %s', (key, text, message) => {
    expect(checkField(field(key), text)).toBe(message)
  })

  test.each([
    ['width', '280'],
    ['width', '600'],
    ['font_size', '13.5'],
    ['primary_color', '#06f'],
    ['background_color', ''],
    ['allowed_paths', '/shop/*\n/contact\n\n'],
    ['allowed_domains', '*.example.com\nlocalhost:3000'],
    ['identity_secret', ''],
    ['bot_avatar_icon', ''],
  ])('%s accepts %j', (key, text) => {
    expect(checkField(field(key), text)).toBeNull()
  })

  test('more than 100 paths are refused', () => {
    expect(checkField(field('allowed_paths'), Array.from({ length: 101 }, (_, i) => `/p${i}`).join('\n'))).toBe('at most 100 paths (now 101)')
  })
})

describe('from the stored integration to a PATCH', () => {
  test('the form shows the stored values; the secret is never filled in', () => {
    const values = formValues(stored)
    expect(values).toMatchObject({ bot_display_name: 'Assistant', width: '380', allowed_domains: 'example.com', greeting_message: 'Hi!', identity_secret: '', allowed_paths: '' })
  })

  test('a valid form becomes the PATCH body: numbers as numbers, lines as lists, empty as null, no secret unless typed', () => {
    const fields = shownFields(stored.config.widget_config)
    const values = { ...formValues(stored), width: '420', allowed_paths: '/shop/*\n', default_country: 'de', greeting_message: '' }
    const body = patchOf(values, fields) as Record<string, any>
    expect(body.widget_config).toEqual({ bot_display_name: 'Assistant', primary_color: '#0066ff', width: 420, allowed_paths: ['/shop/*'] })
    expect(body).toMatchObject({ allowed_domains: ['example.com'], greeting_message: null, default_country: 'DE' })
    expect('identity_secret' in body).toBe(false)
  })

  test('any refused field means no PATCH at all', () => {
    const fields = shownFields(stored.config.widget_config)
    expect(patchOf({ ...formValues(stored), width: '900' }, fields)).toBeNull()
  })

  test("a field this server's widget_config does not have is not offered (rating, before the server knows it)", () => {
    expect(shownFields(stored.config.widget_config).some((spec) => spec.key === 'rating')).toBe(false)
    expect(shownFields({ ...stored.config.widget_config, rating: null }).some((spec) => spec.key === 'rating')).toBe(true)
  })

  test('the embed snippet names the server and the key', () => {
    expect(embedSnippet('https://chat.example.org', 'wk_abc')).toBe('<script src="https://chat.example.org/widget.js?key=wk_abc" data-widget-key="wk_abc" async></script>')
  })
})

describe('unsaved changes, for the warning on leaving the screen', () => {
  const saved = formValues(stored)
  test('the stored settings as the form shows them are not a change', () => {
    expect(unsavedFields(saved, stored)).toEqual([])
  })
  test('a typed field is, until it is typed back; spaces around a value or blank lines are not', () => {
    expect(unsavedFields({ ...saved, primary_color: '#aa1100' }, stored)).toEqual(['primary_color'])
    expect(unsavedFields({ ...saved, primary_color: '#0066ff' }, stored)).toEqual([])
    expect(unsavedFields({ ...saved, bot_display_name: ' Assistant ', allowed_domains: 'example.com\n\n' }, stored)).toEqual([])
  })
  test('an identity secret typed is a change (the stored one is never shown)', () => {
    expect(unsavedFields({ ...saved, identity_secret: 'a-new-secret-of-24-chars' }, stored)).toEqual(['identity_secret'])
  })
})
