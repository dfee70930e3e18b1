/**
 * The error codes of a refused end rating, as plain constants: the server answers with them
 * and the widget shows their message under the rating, so this file imports nothing
 * (widget-protocol.ts has the schemas). docs/widget-protocol.md lists them.
 */
export const RATING_REFUSALS = ['rating_off', 'unknown_conversation', 'conversation_not_closed', 'already_rated', 'invalid_rating'] as const

export type RatingRefusal = (typeof RATING_REFUSALS)[number]
