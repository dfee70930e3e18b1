import { describe, expect, test } from 'bun:test'
import { jsonArguments, toolArguments, toolFields } from '../../../app/src/console/integrations/tool-form.ts'

const ORDER_SCHEMA = {
  type: 'object',
  properties: {
    number: { type: 'string', description: 'The order number, A-1042' },
    quantity: { type: 'integer', default: 1 },
    price: { type: 'number' },
    gift: { type: 'boolean' },
    speed: { enum: ['standard', 'express'] },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['number', 'speed'],
}

describe("the Try it form, drawn from a tool's input schema", () => {
  test('strings, integers, numbers, booleans and enums get inputs; anything else is typed as JSON; required and defaults come along', () => {
    expect(toolFields(ORDER_SCHEMA)).toEqual([
      { name: 'number', kind: 'string', required: true, description: 'The order number, A-1042', initial: '' },
      { name: 'quantity', kind: 'integer', required: false, description: null, initial: '1' },
      { name: 'price', kind: 'number', required: false, description: null, initial: '' },
      { name: 'gift', kind: 'boolean', required: false, description: null, initial: '' },
      { name: 'speed', kind: 'enum', required: true, description: null, options: ['standard', 'express'], initial: '' },
      { name: 'tags', kind: 'json', required: false, description: null, initial: '' },
    ])
  })

  test('a schema that is not an object of properties is typed as JSON whole', () => {
    expect(toolFields({ type: 'object' })).toBeNull()
    expect(toolFields({ anyOf: [{ type: 'object' }] })).toBeNull()
  })

  test('the typed values become arguments of their types; empty optional fields are left out', () => {
    const fields = toolFields(ORDER_SCHEMA)!
    expect(toolArguments(fields, { number: 'A-1042', speed: 'express', price: '9.5', gift: 'true', tags: '["red"]' })).toEqual({
      ok: true,
      arguments: { number: 'A-1042', quantity: 1, price: 9.5, gift: true, speed: 'express', tags: ['red'] },
    })
    expect(toolArguments(fields, { number: 'A-1', speed: 'standard', quantity: '' })).toEqual({ ok: true, arguments: { number: 'A-1', speed: 'standard' } })
  })

  test('what cannot be an argument is refused, naming the field', () => {
    const fields = toolFields(ORDER_SCHEMA)!
    expect(toolArguments(fields, { number: 'A-1' })).toEqual({ ok: false, error: 'speed: is required' })
    expect(toolArguments(fields, { number: 'A-1', speed: 'standard', quantity: '1.5' })).toEqual({ ok: false, error: 'quantity: must be a whole number' })
    expect(toolArguments(fields, { number: 'A-1', speed: 'standard', price: 'ten' })).toEqual({ ok: false, error: 'price: must be a number' })
    expect(toolArguments(fields, { number: 'A-1', speed: 'slow' })).toEqual({ ok: false, error: 'speed: must be one of standard, express' })
    expect(toolArguments(fields, { number: 'A-1', speed: 'standard', tags: '[red' })).toMatchObject({ ok: false, error: expect.stringMatching(/^tags: is not JSON/) })
  })

  test('arguments typed as JSON whole must be an object', () => {
    expect(jsonArguments('')).toEqual({ ok: true, arguments: {} })
    expect(jsonArguments('{"a": 1}')).toEqual({ ok: true, arguments: { a: 1 } })
    expect(jsonArguments('[1]')).toEqual({ ok: false, error: 'the arguments must be a JSON object' })
    expect(jsonArguments('{')).toMatchObject({ ok: false })
  })
})
