/**
 * How hard a password hash is to compute. `argon2id` is what every Parley uses: 64 MiB and 2
 * passes (Bun's defaults, written out so a Bun upgrade cannot change them). `weak-for-tests`
 * is argon2id at its smallest cost, for test suites that sign in hundreds of times: it is only
 * taken with PARLEY_TEST_MODE=1 (server/config.ts refuses it otherwise). A hash records its
 * own cost, so each verifies as it was made whichever is in use.
 */
export type PasswordHashing = 'argon2id' | 'weak-for-tests'

const COSTS: Record<PasswordHashing, { memoryCost: number; timeCost: number }> = {
  argon2id: { memoryCost: 65536, timeCost: 2 },
  'weak-for-tests': { memoryCost: 64, timeCost: 1 },
}

let hashing: PasswordHashing = 'argon2id'
let dummyHash: Promise<string> | undefined

/** The cost new hashes get in this process (set once at start from the configuration). */
export function usePasswordHashing(chosen: PasswordHashing): void {
  if (chosen === hashing) return
  hashing = chosen
  dummyHash = undefined
}

/** argon2id at the cost in use, the algorithm and cost recorded in every hash. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, { algorithm: 'argon2id', ...COSTS[hashing] })
}

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
