import fc from 'fast-check'

/** One frame a fuzzed client sends: JSON or not, as text, as binary, or as bytes claiming to be text. */
export type FuzzFrame =
  | { kind: 'text'; text: string }
  | { kind: 'binary'; bytes: Uint8Array }
  /** A text frame whose bytes need not be UTF-8. */
  | { kind: 'raw-text'; bytes: Uint8Array }

const clientId = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/)
const messageId = fc.string({ minLength: 1, maxLength: 64 })
/** Identities a page may pass to identify(): valid ones (so the identified path runs too) and anything. */
const userId = fc.oneof(fc.constantFrom('fuzz@acme-corp.io', '+14155550123', '(415) 555-0123', 'nobody@example.com'), fc.string({ maxLength: 300 }))
const scalar = fc.oneof(fc.string({ maxLength: 400 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null))
const contactDetails = fc.dictionary(fc.string({ maxLength: 80 }), fc.oneof(scalar, fc.anything({ maxDepth: 2 })), { maxKeys: 20 })

/** Every message type of the protocol (server/protocol/widget-protocol.ts), with valid fields. */
export const validMessage: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  fc.record(
    {
      type: fc.constant('hello'),
      v: fc.constant(1),
      visitor_token: fc.oneof(fc.string({ maxLength: 128 }), fc.stringMatching(/^vt_[0-9A-Za-z]{32}$/)),
      user_id: userId.filter((value) => value.length <= 256),
      user_hash: fc.string({ maxLength: 256 }),
      contact_details: contactDetails,
      after: messageId,
      // fc.webUrl() costs seconds to build; pages' addresses need no such variety here.
      page_url: fc.oneof(fc.stringMatching(/^https?:\/\/[a-z0-9.-]{1,30}(:[0-9]{1,5})?\/[A-Za-z0-9\/?=&%#._~-]{0,100}$/), fc.string({ maxLength: 200 })),
    },
    { requiredKeys: ['type', 'v'] },
  ),
  fc.constant({ type: 'start' }),
  fc.record({ type: fc.constant('message'), client_id: clientId, text: fc.string({ minLength: 1, maxLength: 300 }) }),
  fc.record({
    type: fc.constant('reply'),
    client_id: clientId,
    reply_to: fc.constantFrom('button', 'row'),
    id: fc.string({ minLength: 1, maxLength: 256 }),
    title: fc.string({ maxLength: 256 }),
  }),
  fc.record({ type: fc.constant('typing'), active: fc.boolean() }),
  fc.record({ type: fc.constant('contact_details'), details: contactDetails }),
  fc.record({ type: fc.constant('history'), before: messageId }),
  fc.constant({ type: 'ping' }),
)

/** A string past every field's limit, sometimes past the frame's 64 KiB. */
const hugeString = fc.tuple(fc.integer({ min: 4_097, max: 70_000 }), fc.constantFrom('x', 'é', '\u{1F600}', '"', '\\')).map(([length, unit]) => unit.repeat(length))

const wrongValue = fc.oneof(
  fc.anything({ maxDepth: 3 }),
  fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}, '__proto__', 'constructor'),
  hugeString,
)

/** A valid message with one field replaced by a wrong value, removed, added, or a wrong type. */
const mutatedMessage = fc
  .tuple(validMessage, fc.constantFrom('replace', 'delete', 'add', 'retype', 'proto'), fc.nat(), wrongValue, fc.string({ maxLength: 20 }))
  .map(([message, how, pick, value, name]) => {
    const copy: Record<string, unknown> = { ...message }
    const fields = Object.keys(copy)
    const field = fields[pick % fields.length]!
    if (how === 'replace') copy[field] = value
    else if (how === 'delete') delete copy[field]
    else if (how === 'add') copy[name || 'extra'] = value
    else if (how === 'retype') copy.type = typeof value === 'string' ? value : name
    else return `{"__proto__":{"type":"ping"},${JSON.stringify(copy).slice(1)}`
    return copy
  })

/** A valid message wrapped in arrays or objects, from one level to far past the limit. */
const nestedFrame = fc.tuple(validMessage, fc.integer({ min: 1, max: 60 }), fc.boolean()).map(([message, levels, inObjects]) => {
  let text = JSON.stringify(message)
  for (let level = 0; level < levels; level++) text = inObjects ? `{"type":"contact_details","details":${text}}` : `[${text}]`
  return text
})

/** contact_details with some to hundreds of keys. */
const manyKeys = fc.integer({ min: 10, max: 400 }).map((count) => ({
  type: 'contact_details',
  details: Object.fromEntries(Array.from({ length: count }, (_, index) => [`key_${index}`, index])),
}))

const notJson = fc.oneof(
  fc.string({ maxLength: 200 }),
  validMessage.chain((message) => {
    const text = JSON.stringify(message)
    return fc.nat(text.length - 1).map((cut) => text.slice(0, cut))
  }),
  fc.constantFrom('', ' ', 'null', '[]', '{}', '"hello"', '1', 'NaN', '{"type":"hello","v":1,}'),
)

const asText = (value: unknown): FuzzFrame => ({ kind: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) })

/** Bytes with at least one that can never start or continue UTF-8. */
const notUtf8 = fc.tuple(fc.uint8Array({ maxLength: 100 }), fc.nat(), fc.constantFrom(0xff, 0xfe, 0xc0, 0x80)).map(([bytes, at, bad]) => {
  const out = new Uint8Array(bytes.length + 1)
  const index = bytes.length === 0 ? 0 : at % (bytes.length + 1)
  out.set(bytes.subarray(0, index))
  out[index] = bad
  out.set(bytes.subarray(index), index + 1)
  return out
})

/** Any frame a hostile or broken client might send. */
export const fuzzFrame: fc.Arbitrary<FuzzFrame> = fc.oneof(
  { weight: 4, arbitrary: validMessage.map(asText) },
  { weight: 4, arbitrary: mutatedMessage.map(asText) },
  { weight: 1, arbitrary: fc.record({ type: fc.constantFrom('message', 'contact_details', 'hello'), text: hugeString }).map(asText) },
  { weight: 2, arbitrary: nestedFrame.map(asText) },
  { weight: 1, arbitrary: manyKeys.map(asText) },
  { weight: 2, arbitrary: notJson.map(asText) },
  { weight: 1, arbitrary: validMessage.map((message) => ({ kind: 'binary' as const, bytes: new TextEncoder().encode(JSON.stringify(message)) })) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => ({ kind: 'binary' as const, bytes })) },
  { weight: 1, arbitrary: notUtf8.map((bytes) => ({ kind: 'raw-text' as const, bytes })) },
)

/** One visitor's session: maybe a valid hello first, then frames, the last one maybe repeated as a flood. */
export const fuzzSession = fc.record({
  helloFirst: fc.boolean(),
  frames: fc.array(fuzzFrame, { minLength: 1, maxLength: 8 }),
  floodLast: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 30, max: 120 }) }),
})
export type FuzzSession = typeof fuzzSession extends fc.Arbitrary<infer T> ? T : never
