/**
 * Why the server closed a widget socket: the WebSocket close code, with a short reason string
 * sent alongside. Shared by server and widget; free of imports so the widget bundle stays small.
 */
export const CloseCode = {
  /** Server shutting down; reconnect with backoff. */
  goingAway: 1001,
  /** A text frame that is not UTF-8 (sent by the server's WebSocket layer). */
  invalidFrameData: 1007,
  /** A frame over FRAME_LIMITS.maxBytes, refused before it is read whole (sent by the server's WebSocket layer). */
  frameTooLarge: 1009,
  /** No web integration has this widget key (never had, or deleted). Do not reconnect. */
  unknownWidgetKey: 4001,
  /** The integration exists but is switched off. Do not reconnect until reload. */
  integrationInactive: 4002,
  /** The page's Origin is not in allowed_domains (or missing while the list is not empty). */
  originNotAllowed: 4003,
  /** identify(): the user id is not a valid e-mail or phone number, or is a synthetic e-mail. */
  invalidIdentity: 4004,
  /** identify(): identity_secret is set and the hash is missing or wrong. */
  identityNotVerified: 4005,
  /** The client broke the protocol (bad JSON, a frame over the nesting or member limits before hello, no hello first). */
  protocolError: 4006,
  /** No hello arrived in time after connecting. */
  helloTimeout: 4007,
  /** Too many frames too fast, valid or not. */
  rateLimited: 4008,
  /** The integration was deleted or deactivated while connected. Do not reconnect. */
  integrationRemoved: 4009,
  /**
   * identify(): identity_secret is set and the user id is not in its canonical form (lower-case
   * e-mail, E.164 phone), the only form a hash is accepted for. Do not reconnect.
   */
  identityNotCanonical: 4010,
} as const

export type CloseCode = (typeof CloseCode)[keyof typeof CloseCode]

/** Codes after which reconnecting cannot help until the page (or its configuration) changes. */
export const FINAL_CLOSE_CODES: readonly number[] = [
  CloseCode.unknownWidgetKey,
  CloseCode.integrationInactive,
  CloseCode.originNotAllowed,
  CloseCode.invalidIdentity,
  CloseCode.identityNotVerified,
  CloseCode.integrationRemoved,
  CloseCode.identityNotCanonical,
]
