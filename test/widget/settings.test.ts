import { describe, expect, test } from 'bun:test'
import { WIDGET_CONFIG_DEFAULTS } from '../../server/protocol/widget-config-defaults.ts'
import { resolveSettings, textColorOn } from '../../widget/src/settings.ts'

describe('widget_config as the widget draws it', () => {
  test('nothing given: every default of the spec', () => {
    expect(resolveSettings(undefined)).toEqual({ ...WIDGET_CONFIG_DEFAULTS })
    expect(resolveSettings({})).toEqual({ ...WIDGET_CONFIG_DEFAULTS })
  })

  test('keeps every valid value', () => {
    const config = {
      bot_display_name: 'Shop helper',
      primary_color: '#ffcc00',
      secondary_color: '#222',
      background_color: '#101820',
      bubble_text: 'Chat with us',
      bot_avatar_icon: 'graduation',
      bot_avatar_url: 'https://cdn.example.com/bot.png',
      font_size: 16,
      position: 'bottom-left',
      width: 420,
      height: 520,
      allowed_paths: ['/shop/*', '/contact'],
      rating: 'stars',
      locale: 'he',
    }
    expect(resolveSettings(config)).toEqual(config as never)
  })

  test('replaces values of the wrong kind or out of range by the default', () => {
    const resolved = resolveSettings({
      bot_display_name: '  ',
      primary_color: 'red',
      secondary_color: 42,
      background_color: 'url(x)',
      bubble_text: null,
      bot_avatar_icon: 'dragon',
      bot_avatar_url: 'javascript:alert(1)',
      font_size: 40,
      position: 'top-left',
      width: 100,
      height: '600',
      allowed_paths: ['/ok', 'no-slash', '/a/*/b'],
      rating: 'ten',
      locale: 'klingon',
    })
    expect(resolved).toEqual({ ...WIDGET_CONFIG_DEFAULTS, allowed_paths: ['/ok'] })
  })

  test.each([
    ['http', 'http://cdn.example.com/bot.png'],
    ['data:', 'data:image/png;base64,iVBORw0KGgo='],
    ['no host', 'https:///bot.png'],
    ['spaces', 'https://cdn.example.com/a b.png'],
    ['too long', `https://cdn.example.com/${'a'.repeat(2048)}`],
    ['not a string', 42],
  ])('an avatar image address the server would refuse (%s) is not drawn', (_, url) => {
    expect(resolveSettings({ bot_avatar_url: url }).bot_avatar_url).toBe(null)
  })

  test('an empty avatar icon means none is drawn but stays as given', () => {
    expect(resolveSettings({ bot_avatar_icon: '' }).bot_avatar_icon).toBe('')
  })

  test.each([
    ['#0066ff', '#ffffff'],
    ['#f0f4ff', '#000000'],
    ['#ffcc00', '#000000'],
    ['#000', '#ffffff'],
    ['#fff', '#000000'],
    ['#101820', '#ffffff'],
  ])('text on %s is %s', (background, text) => {
    expect(textColorOn(background)).toBe(text as '#000000')
  })
})
