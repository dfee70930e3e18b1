import { afterEach, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { hashPassword, usePasswordHashing, verifyPassword } from '../../server/people/password.ts'

describe('passwords', () => {
  // The cost is per process: another file's test app may have chosen the tests' weak one.
  beforeAll(() => usePasswordHashing('argon2id'))
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

  test("the tests' weak cost is still argon2id, and production hashes verify under it", async () => {
    const production = await hashPassword('correct horse battery staple')
    usePasswordHashing('weak-for-tests')
    try {
      const weak = await hashPassword('correct horse battery staple')
      expect(weak).toStartWith('$argon2id$v=19$m=64,t=1,p=1$')
      expect(await verifyPassword('correct horse battery staple', weak)).toBe(true)
      expect(await verifyPassword('correct horse battery staple', production)).toBe(true)
      expect(await verifyPassword('correct horse battery stapl', production)).toBe(false)
    } finally {
      usePasswordHashing('argon2id')
    }
  })
})
