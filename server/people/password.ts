/** argon2id with Bun's defaults (64 MiB, 2 passes), the algorithm recorded in every hash. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id' })
}

let dummyHash: Promise<string> | undefined

/**
 * Checks a password against a stored hash. Without a hash (no such person, or one who has not
 * set a password yet) it still verifies against a dummy hash of the same cost, so that the
 * answer takes as long and an unknown e-mail cannot be told from a wrong password by timing.
 */
export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (hash === null) {
    dummyHash ??= hashPassword(`dummy-${crypto.randomUUID()}`)
    await Bun.password.verify(password, await dummyHash)
    return false
  }
  return Bun.password.verify(password, hash)
}
