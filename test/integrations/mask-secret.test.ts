import { describe, expect, test } from 'bun:test'
import { maskOptional, maskSecret } from '../../server/integrations/mask-secret.ts'

describe('masking a write-only secret', () => {
  test.each([
    ['EAAGm0PX4ZCpsBAKZD9x', '••••ZD9x'],
    ['123456789012', '••••9012'],
    ['12345678901', '••••'],
    ['hunter2', '••••'],
    ['', '••••'],
    ['pässwörd-🔑-1234🔑', '••••234🔑'],
  ])('%j shows as %j', (secret, shown) => {
    expect(maskSecret(secret)).toBe(shown)
  })

  test('an absent secret shows as null', () => {
    expect(maskOptional(undefined)).toBeNull()
    expect(maskOptional(null)).toBeNull()
    expect(maskOptional('abcdefghijklmnop')).toBe('••••mnop')
  })
})
