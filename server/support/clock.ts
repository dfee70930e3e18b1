/** Now as ISO 8601 UTC with milliseconds; injected so tests can pin time. */
export type Clock = () => string

export const systemClock: Clock = () => new Date().toISOString()
