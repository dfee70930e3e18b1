/**
 * What is stored of a session id or one-time token: its SHA-256. The secrets carry 238 bits
 * from the CSPRNG, so a fast hash suffices (no password stretching needed), and a stolen copy
 * of the database opens nothing.
 */
export function secretHash(secret: string): string {
  return Bun.SHA256.hash(secret, 'hex') as string
}
