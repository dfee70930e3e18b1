import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import { RE2JS } from 're2js'
import type { FieldError } from '../http/api-error.ts'

/** A server's schema larger than this is not compiled; the server checks the arguments itself. */
const MAX_SCHEMA_CHARACTERS = 256 * 1024

// The schemas come from remote servers: their `pattern`s run in RE2 (linear time), so a
// hostile pattern cannot stall Parley, and nothing is coerced or defaulted.
const ajv = new Ajv2020({
  strict: false,
  allErrors: true,
  validateSchema: false,
  validateFormats: false,
  code: { regExp: Object.assign((pattern: string) => compiledPattern(pattern), { code: 'compiledPattern' }) },
})

function compiledPattern(pattern: string) {
  const re = RE2JS.compile(pattern)
  // Ajv keys its shared pattern objects by toString(): each pattern needs its own.
  return { test: (text: string) => re.matcher(text).find(), toString: () => `/${pattern}/` }
}

const compiled = new WeakMap<object, ValidateFunction | null>()

/**
 * Checks a tool call's arguments against the tool's input schema. Errors point into the
 * request body (`/arguments/...`). A schema that cannot be compiled (unknown dialect, a
 * pattern RE2 cannot run, too large) is left to the server.
 */
export function checkArguments(schema: Record<string, unknown>, args: Record<string, unknown>): FieldError[] {
  const validate = validatorFor(schema)
  if (!validate || validate(args)) return []
  return (validate.errors ?? []).slice(0, 20).map(describe)
}

function validatorFor(schema: Record<string, unknown>): ValidateFunction | null {
  const known = compiled.get(schema)
  if (known !== undefined) return known
  let validate: ValidateFunction | null = null
  try {
    if (JSON.stringify(schema).length <= MAX_SCHEMA_CHARACTERS) {
      // $schema names a dialect this validator may not know; the keywords are what matter.
      const { $schema: _, $id: __, ...rest } = schema
      validate = ajv.compile(rest)
    }
  } catch {
    validate = null
  }
  compiled.set(schema, validate)
  return validate
}

function describe(error: ErrorObject): FieldError {
  const base = `/arguments${error.instancePath}`
  const params = error.params as Record<string, unknown>
  if (error.keyword === 'required') return { path: `${base}/${pointerPart(String(params.missingProperty))}`, message: 'is required' }
  if (error.keyword === 'additionalProperties') {
    return { path: `${base}/${pointerPart(String(params.additionalProperty))}`, message: 'is not an argument of this tool' }
  }
  return { path: base, message: error.message ?? 'is invalid' }
}

function pointerPart(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1')
}
