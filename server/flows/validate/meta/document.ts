/**
 * The top level of a Flow JSON document: `version` (present, well formed, supported),
 * `screens`, and the endpoint keys `data_api_version`, `routing_model` and (before 3.0)
 * `data_channel_uri`.
 */
import { MetaCode } from './codes.ts'
import type { MetaContext } from './context.ts'
import { type JsonObject, hasOwn, jsonTypeOf } from './json.ts'
import { checkShape } from './schema.ts'
import type { Shape } from './spec.ts'
import { FEATURE_SINCE, SUPPORTED_VERSIONS, SUPPORTED_VERSION_NUMBERS, parseVersion } from './versions.ts'

const DOCUMENT_SHAPE: Shape = {
  name: 'the flow',
  props: {
    // Any type: readVersion explains what is wrong with it.
    version: { types: ['string', 'number', 'boolean', 'array', 'object'], role: 'nested' },
    screens: { types: ['array'], required: 0, role: 'nested', minItems: 1 },
    data_api_version: { types: ['string'], enum: ['3.0'], staticOnly: true },
    routing_model: { types: ['object'], role: 'nested' },
    data_channel_uri: { types: ['string'], staticOnly: true },
  },
}

/** Checks the top level; answers the screens when there are any to walk. */
export function checkDocument(ctx: MetaContext, document: JsonObject): unknown[] {
  readVersion(ctx, document)
  ctx.hasDataApiVersion = document.data_api_version !== undefined
  checkShape({ ctx, screen: null, owner: 'flow' }, document, DOCUMENT_SHAPE, '')
  if (hasOwn(document, 'data_channel_uri') && ctx.atLeast(FEATURE_SINCE.dataChannelUriRemoved)) {
    ctx.issues.error(
      '/data_channel_uri',
      MetaCode.INVALID_PROPERTY_KEY,
      "From Flow JSON 3.0, 'data_channel_uri' is not part of the document: the endpoint is configured with the flow's settings. Remove it.",
    )
  }
  return Array.isArray(document.screens) ? document.screens : []
}

function readVersion(ctx: MetaContext, document: JsonObject): void {
  const version = document.version
  const supported = SUPPORTED_VERSIONS.join(', ')
  if (version === undefined) {
    ctx.issues.error('/version', MetaCode.MISSING_FLOW_JSON_VERSION, `Add "version", the Flow JSON version the flow is written for (one of ${supported}).`)
    return
  }
  const parsed = typeof version === 'string' ? parseVersion(version) : null
  if (parsed === null) {
    ctx.issues.error(
      '/version',
      MetaCode.INVALID_FLOW_JSON_VERSION,
      `"version" must be a string such as "7.0", not ${typeof version === 'string' ? `'${version}'` : jsonTypeOf(version)}.`,
    )
    return
  }
  if (!SUPPORTED_VERSION_NUMBERS.has(parsed)) {
    ctx.issues.error('/version', MetaCode.UNSUPPORTED_FLOW_JSON_VERSION, `Flow JSON version '${version}' is not supported. Use one of ${supported}.`)
    return
  }
  ctx.version = parsed
}
