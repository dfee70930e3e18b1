/**
 * A screen's `data` model: each field has a string `type`, a `__example__` of that type, arrays
 * have `items`, and `__example__` appears only at the top level of a field.
 */
import { MetaCode } from './codes.ts'
import type { DataField, MetaContext } from './context.ts'
import { DATA_TYPES, type DataType, type JsonObject, MAX_DEPTH, hasOwn, isObject, jsonTypeOf, oneOf, token } from './json.ts'

const EXAMPLE = '__example__'

export function readScreenData(ctx: MetaContext, data: unknown, path: string): Map<string, DataField> {
  const fields = new Map<string, DataField>()
  if (data === undefined) return fields
  if (!isObject(data)) {
    ctx.issues.error(path, MetaCode.INVALID_PROPERTY_TYPE, `'data' must be an object mapping field names to their declarations, not ${jsonTypeOf(data)}.`)
    return fields
  }
  for (const key in data) {
    const field = data[key]
    const fieldPath = `${path}/${token(key)}`
    if (!isObject(field)) {
      ctx.issues.error(fieldPath, MetaCode.INVALID_SCREEN_DATA, `Data field '${key}' must be an object such as {"type": "string", "__example__": "text"}.`)
      continue
    }
    const type = checkSchema(ctx, field, fieldPath, key, true)
    if (!hasOwn(field, EXAMPLE)) {
      ctx.issues.error(`${fieldPath}/${EXAMPLE}`, MetaCode.INVALID_SCREEN_DATA, `Data field '${key}' needs an '__example__' value of its type.`)
    } else if (type !== null) {
      const mismatch = exampleMismatch(field, field[EXAMPLE], `${fieldPath}/${EXAMPLE}`)
      if (mismatch) {
        ctx.issues.error(mismatch.path, MetaCode.INVALID_SCREEN_DATA, `The __example__ of '${key}' does not match its declaration: ${mismatch.reason}.`)
      }
    }
    fields.set(key, { type, schema: field, path: fieldPath })
  }
  return fields
}

/** Checks one schema node; answers its type when usable. */
function checkSchema(ctx: MetaContext, node: JsonObject, path: string, name: string, topLevel: boolean, depth = 0): DataType | null {
  if (depth >= MAX_DEPTH) {
    ctx.issues.error(path, MetaCode.INVALID_FLOW_JSON, `This declaration is nested more than ${MAX_DEPTH} levels deep, which no flow needs. Flatten it.`)
    return null
  }
  if (!topLevel && hasOwn(node, EXAMPLE)) {
    ctx.issues.error(`${path}/${EXAMPLE}`, MetaCode.INVALID_SCREEN_DATA, `'__example__' is allowed only at the top level of a data field; remove it from '${name}'.`)
  }
  const type = node.type
  if (type === undefined) {
    ctx.issues.error(`${path}/type`, MetaCode.INVALID_SCREEN_DATA, `'${name}' needs a 'type': ${oneOf(DATA_TYPES)}.`)
    return null
  }
  if (typeof type !== 'string' || !(DATA_TYPES as readonly string[]).includes(type)) {
    ctx.issues.error(`${path}/type`, MetaCode.INVALID_SCREEN_DATA, `The 'type' of '${name}' must be the string ${oneOf(DATA_TYPES)}.`)
    return null
  }
  if (type === 'array') {
    const items = node.items
    if (items === undefined) {
      ctx.issues.error(`${path}/items`, MetaCode.INVALID_SCREEN_DATA, `'${name}' is an array, so it needs 'items' describing its elements.`)
    } else if (isObject(items)) {
      checkSchema(ctx, items, `${path}/items`, `${name} items`, false, depth + 1)
    } else if (typeof items !== 'boolean') {
      ctx.issues.error(`${path}/items`, MetaCode.INVALID_SCREEN_DATA, `'items' of '${name}' must be an object (or a boolean).`)
    }
  }
  if (type === 'object' && node.properties !== undefined) {
    const properties = node.properties
    if (!isObject(properties)) {
      ctx.issues.error(`${path}/properties`, MetaCode.INVALID_SCREEN_DATA, `'properties' of '${name}' must be an object of declarations.`)
    } else {
      for (const key in properties) {
        const property = properties[key]
        const propertyPath = `${path}/properties/${token(key)}`
        if (isObject(property)) checkSchema(ctx, property, propertyPath, key, false, depth + 1)
        else ctx.issues.error(propertyPath, MetaCode.INVALID_SCREEN_DATA, `The declaration of '${key}' must be an object with a 'type'.`)
      }
    }
  }
  return type as DataType
}

/** Where an example strays from its schema, and how. */
function exampleMismatch(schema: JsonObject, example: unknown, path: string, depth = 0): { path: string; reason: string } | null {
  const type = schema.type
  if (depth >= MAX_DEPTH) return null
  if (typeof type !== 'string') return null
  const found = jsonTypeOf(example)
  if (found !== type) return { path, reason: `expected ${type}, found ${found}` }
  if (type === 'array' && isObject(schema.items)) {
    const items = example as unknown[]
    for (let i = 0; i < items.length; i++) {
      const mismatch = exampleMismatch(schema.items, items[i], `${path}/${i}`, depth + 1)
      if (mismatch) return mismatch
    }
  }
  if (type === 'object' && isObject(schema.properties)) {
    const object = example as JsonObject
    for (const key in object) {
      const property = schema.properties[key]
      if (!isObject(property)) continue
      const mismatch = exampleMismatch(property, object[key], `${path}/${token(key)}`, depth + 1)
      if (mismatch) return mismatch
    }
  }
  return null
}
