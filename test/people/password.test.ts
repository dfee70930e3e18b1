import { afterEach, describe, expect, spyOn, test } from 'bun:test'
import { hashPassword, verifyPassword } from '../../server/people/password.ts'

describe('passwords', () => {
  afterEach(() => {
    ;(Bun.password.verify as unknown as { mockRestore?: () => void }).mockRestore?.()
  })

  test('are stored as argon2id hashes that verify the password and nothing else', async () => {
    const hash = await hashPassword('correct horse battery staple')
    expect(hash).toStartWith('$argon2id$')
    expect(await verifyPassword('correct horse battery staple', hash)).toBe(true)
    expect(await verifyPassword('correct horse battery stapl', hash)).toBe(false)
  })

  test('without a hash (no such person) a verification against a dummy hash of the same cost is still spent', async () => {
    const verify = spyOn(Bun.password, 'verify')
    expect(await verifyPassword('anything at all', null)).toBe(false)
    expect(verify).toHaveBeenCalledTimes(1)
    const [password, dummy] = verify.mock.calls[0] as [string, string]
    expect(password).toBe('anything at all')
    expect(dummy).toStartWith('$argon2id$v=19$m=65536,t=2,')
    expect((await hashPassword('x')).split('$').slice(0, 4)).toEqual(dummy.split('$').slice(0, 4))
  })
})
