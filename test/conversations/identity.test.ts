import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { isCanonicalUserId, resolveIdentity, verifyIdentityHash } from '../../server/conversations/identity.ts'

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

  test('characters an address may hold are kept: a sub-address is not merged into another mailbox', () => {
    expect(resolveIdentity('jane+doe.private@gmail.com')).toEqual({ ok: true, externalId: 'jane+doe.private@gmail.com', kind: 'email' })
    expect(resolveIdentity('janedoe.private@gmail.com')).toEqual({ ok: true, externalId: 'janedoe.private@gmail.com', kind: 'email' })
  })

  test.each(["o'brien@acme.io", 'jane{x}@acme.io', 'jane%doe@acme.io', 'a/b@acme.io'])(
    '%s, a valid address outside the identity characters, is refused rather than stripped',
    (raw) => {
      expect(resolveIdentity(raw)).toEqual({ ok: false, reason: 'the e-mail address may hold only A-Z a-z 0-9 . _ - + before the @' })
    },
  )

  test.each([
    ['markup', '<script>jane</script>@acme.io'],
    ['a space', 'jane doe@acme.io'],
    ['a non-ASCII letter', 'jäne@acme.io'],
  ])('a user id with %s is refused, never stripped into someone else', (_, raw) => {
    const result = resolveIdentity(raw)
    expect(result).toEqual({ ok: false, reason: 'the e-mail address is invalid' })
  })

  test('a user id longer than 100 characters is refused, never cut to a 100-character one', () => {
    const victim = `${'jane.doe.'.repeat(5)}personal@${'staff.'.repeat(4)}acme-corporation.co.uk`
    expect(victim).toHaveLength(100)
    expect(resolveIdentity(victim)).toEqual({ ok: true, externalId: victim, kind: 'email' })
    const longer = `${victim}.evil-corp.io`
    expect(longer).toHaveLength(113)
    expect(resolveIdentity(longer)).toEqual({ ok: false, reason: 'the user id is longer than 100 characters' })
  })

  test('surrounding spaces are not part of the identity', () => {
    expect(resolveIdentity('  jane@acme.io \n')).toEqual({ ok: true, externalId: 'jane@acme.io', kind: 'email' })
  })

  test.each([
    ['jane@acme.io', true],
    ['+442079460958', true],
    ['jane+doe@acme.io', true],
    ['Jane@acme.io', false],
    [' jane@acme.io', false],
    ['+44 20 7946 0958', false],
    ['0044 20 7946 0958', false],
    ['020 7946 0958', false],
  ])('%j is canonical (the only form a hash is accepted for): %p', (userId, canonical) => {
    const identity = resolveIdentity(userId, 'GB')
    expect(identity.ok).toBe(true)
    if (identity.ok) expect(isCanonicalUserId(userId, identity)).toBe(canonical)
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

describe('docs/widget.md, identity verification', () => {
  test('the worked example is the HMAC it claims, over the canonical user id', async () => {
    const docs = await Bun.file(new URL('../../docs/widget.md', import.meta.url).pathname).text()
    const example = /user id to pass and sign: +(\S+)\nhash = hex\(HMAC-SHA256\("([^"]+)", "([^"]+)"\)\)\n +=\s+([0-9a-f]{64})/.exec(docs)
    expect(example).not.toBeNull()
    const [, userId, secret, signed, hash] = example!
    expect(signed).toBe(userId!)
    const identity = resolveIdentity(userId!)
    expect(identity.ok && isCanonicalUserId(userId!, identity)).toBe(true)
    expect(verifyIdentityHash(secret!, userId!, hash)).toBe(true)
  })
})
