import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { resolveIdentity, sanitizeUserId, verifyIdentityHash } from '../../server/conversations/identity.ts'

describe('identify(user_id)', () => {
  test('every spelling of one phone number is one visitor', () => {
    const spellings = ['+44 20 7946 0958', '+442079460958', '0044 20 7946 0958', '(020) 7946-0958']
    const ids = spellings.map((raw) => resolveIdentity(raw, 'GB'))
    for (const id of ids) expect(id).toEqual({ ok: true, externalId: '+442079460958', kind: 'phone' })
  })

  test('a local spelling needs the integration\'s default country', () => {
    expect(resolveIdentity('020 7946 0958').ok).toBe(false)
    expect(resolveIdentity('(415) 555-2671', 'US')).toEqual({ ok: true, externalId: '+14155552671', kind: 'phone' })
  })

  test('e-mail addresses are one visitor whatever their case', () => {
    expect(resolveIdentity('Jane.Doe@Acme-Corp.io')).toEqual({ ok: true, externalId: 'jane.doe@acme-corp.io', kind: 'email' })
  })

  test.each([
    ['not-an-email@', 'invalid'],
    ['jane@example.com', 'synthetic'],
    ['jane@shop.test', 'synthetic'],
    ['jane@host.invalid', 'synthetic'],
    ['jane@mailinator.com', 'disposable'],
  ])('%s is refused as %s', (raw, reason) => {
    const result = resolveIdentity(raw)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.reason).toContain(reason)
  })

  test('something that is neither is refused', () => {
    expect(resolveIdentity('hello').ok).toBe(false)
    expect(resolveIdentity('   ').ok).toBe(false)
  })

  test('sanitising keeps A-Z a-z 0-9 @ . _ - (and a leading +) and at most 100 characters', () => {
    expect(sanitizeUserId('<script>jane</script>@acme.io')).toBe('scriptjanescript@acme.io')
    expect(sanitizeUserId(' +1 (415) 555 ')).toBe('+1415555')
    expect(sanitizeUserId('a'.repeat(150))).toHaveLength(100)
  })

  test('with identity_secret the hash must be HMAC-SHA256 of the user id, in hex', () => {
    const secret = 'a-long-identity-secret-value'
    const good = createHmac('sha256', secret).update('jane@acme.io').digest('hex')
    expect(verifyIdentityHash(secret, 'jane@acme.io', good)).toBe(true)
    expect(verifyIdentityHash(secret, 'jane@acme.io', good.toUpperCase())).toBe(true)
    expect(verifyIdentityHash(secret, 'john@acme.io', good)).toBe(false)
    expect(verifyIdentityHash(secret, 'jane@acme.io', undefined)).toBe(false)
    expect(verifyIdentityHash(secret, 'jane@acme.io', 'abc')).toBe(false)
  })
})
