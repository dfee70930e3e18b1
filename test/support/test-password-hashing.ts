/**
 * The test-only password cost (server/config.ts): argon2id at its smallest, allowed because a
 * test's data is throwaway. A test about the cost itself leaves it out (test/people/password-cost.test.ts).
 */
export const TEST_PASSWORD_HASHING = { PARLEY_TEST_MODE: '1', PARLEY_TEST_PASSWORD_HASHING: 'weak' }
