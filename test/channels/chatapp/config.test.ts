import { describe, expect, test } from 'bun:test'
import { ConfigError, DEFAULT_CHATAPP_API_URL, loadConfig } from '../../../server/config.ts'

describe('PARLEY_CHATAPP_API_URL', () => {
  test('defaults to the Graph API, version included', () => {
    expect(loadConfig({}).chatappApiUrl).toBe(DEFAULT_CHATAPP_API_URL)
    expect(DEFAULT_CHATAPP_API_URL).toBe('https://graph.facebook.com/v21.0')
  })

  test('takes another base, without its trailing slashes', () => {
    expect(loadConfig({ PARLEY_CHATAPP_API_URL: ' http://127.0.0.1:8080/v22.0// ' }).chatappApiUrl).toBe('http://127.0.0.1:8080/v22.0')
    expect(loadConfig({ PARLEY_CHATAPP_API_URL: 'https://graph.example.com' }).chatappApiUrl).toBe('https://graph.example.com')
  })

  test.each([
    ['graph.facebook.com/v21.0', 'PARLEY_CHATAPP_API_URL must be an absolute http(s) URL such as https://graph.facebook.com/v21.0, got "graph.facebook.com/v21.0"'],
    ['ftp://graph.facebook.com/v21.0', 'PARLEY_CHATAPP_API_URL must use http or https, got "ftp://graph.facebook.com/v21.0"'],
    ['https://user:pw@graph.facebook.com/v21.0', 'PARLEY_CHATAPP_API_URL must not carry a user name, password, query or fragment, got "https://user:pw@graph.facebook.com/v21.0"'],
    ['https://graph.facebook.com/v21.0?x=1', 'PARLEY_CHATAPP_API_URL must not carry a user name, password, query or fragment, got "https://graph.facebook.com/v21.0?x=1"'],
  ])('a bad value (%s) stops the start with one clear line', (value, message) => {
    expect(() => loadConfig({ PARLEY_CHATAPP_API_URL: value })).toThrow(new ConfigError(message))
  })
})
