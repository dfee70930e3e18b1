#!/usr/bin/env bun
/**
 * npm run bench:meta: validateMetaFlow on a generated, valid ~5 MB WhatsApp Flow JSON document
 * (100 screens shaped like the provider samples: a Form of inputs with long option lists, If and
 * Switch, large endpoint data models), against a baseline measured in the same run on the same
 * document: JSON.parse(JSON.stringify(doc)). Prints medians and their ratio; machines are noisy,
 * so the ratio is the figure to compare.
 */
import { validateMetaFlow } from '../../server/flows/validate/meta.ts'

type Json = Record<string, unknown>

const TARGET_BYTES = 5 * 1024 * 1024
const SCREENS = 100

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Sed vitae odio dui. Praesent ut nulla tincidunt, scelerisque augue malesuada, volutpat lorem. '

const options = (prefix: string, count: number, withDescription: boolean): Json[] =>
  Array.from({ length: count }, (_, i) => ({
    id: `${prefix}_${i}`,
    title: `${prefix} option ${i}`.slice(0, 30),
    ...(withDescription ? { description: `Details about option ${i} of ${prefix}, shown under its title.` } : {}),
  }))

const screenId = (index: number) => `STEP_${String.fromCharCode(65 + Math.floor(index / 26))}${String.fromCharCode(65 + (index % 26))}`

/** The data every screen declares (and passes on to the next one). */
function dataModel(index: number, exampleItems: number): Json {
  return {
    title: { type: 'string', __example__: `Step ${index + 1}` },
    show_extra: { type: 'boolean', __example__: index % 2 === 0 },
    cities: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' }, description: { type: 'string' } } },
      __example__: Array.from({ length: exampleItems }, (_, i) => ({
        id: `city_${i}`,
        title: `City number ${i}`,
        description: `A city the endpoint may offer on step ${index + 1}, with a short description.`,
      })),
    },
  }
}

function screen(index: number, exampleItems: number): Json {
  const id = screenId(index)
  const last = index === SCREENS - 1
  const next = last ? null : screenId(index + 1)
  const inputs: Json[] = [
    { type: 'TextHeading', text: '${data.title}' },
    { type: 'TextBody', text: LOREM.repeat(25).slice(0, 4000) },
    { type: 'TextInput', name: `name_${index}`, label: 'Your name', 'input-type': 'text', required: true, 'helper-text': 'As on your ID' },
    { type: 'TextArea', name: `note_${index}`, label: 'Anything to add?', required: false },
    { type: 'CheckboxGroup', name: `topics_${index}`, label: 'Topics', 'data-source': options('topic', 20, true), 'min-selected-items': 1, 'max-selected-items': 3 },
    { type: 'RadioButtonsGroup', name: `plan_${index}`, label: 'Plan', 'data-source': options('plan', 20, true), required: true },
    { type: 'Dropdown', name: `product_${index}`, label: 'Product', 'data-source': options('product', 200, true), required: true },
    { type: 'Dropdown', name: `city_${index}`, label: 'City', 'data-source': '${data.cities}' },
    { type: 'DatePicker', name: `day_${index}`, label: 'Delivery day', 'min-date': '2024-01-01', 'max-date': '2025-12-31' },
    { type: 'OptIn', name: `agree_${index}`, label: 'I agree to the terms of this step' },
    {
      type: 'If',
      condition: `\${data.show_extra} && \${form.agree_${index}}`,
      then: [{ type: 'TextCaption', text: 'Thanks for agreeing.' }],
      else: [{ type: 'TextCaption', text: 'Please read the terms.' }],
    },
    {
      type: 'Switch',
      value: `\${form.plan_${index}}`,
      cases: { plan_0: [{ type: 'TextBody', text: 'The basic plan.' }], plan_1: [{ type: 'TextBody', text: 'The full plan.' }] },
    },
    last
      ? {
          type: 'Footer',
          label: 'Finish',
          'on-click-action': { name: 'complete', payload: { name: `\${form.name_${index}}`, topics: `\${form.topics_${index}}`, plan: `\${form.plan_${index}}` } },
        }
      : { type: 'Footer', label: 'Continue', 'on-click-action': { name: 'data_exchange', payload: { name: `\${form.name_${index}}`, plan: `\${form.plan_${index}}` } } },
  ]
  const children: Json[] = [{ type: 'Form', name: 'form', children: inputs }]
  if (next) {
    children.push({
      type: 'EmbeddedLink',
      text: 'Skip this step',
      'on-click-action': {
        name: 'navigate',
        next: { type: 'screen', name: next },
        payload: { title: '${data.title}', show_extra: '${data.show_extra}', cities: '${data.cities}' },
      },
    })
  }
  return { id, title: `Step ${index + 1}`, ...(last ? { terminal: true, success: true } : {}), data: dataModel(index, exampleItems), layout: { type: 'SingleColumnLayout', children } }
}

function build(exampleItems: number): Json {
  const ids = Array.from({ length: SCREENS }, (_, i) => screenId(i))
  return {
    version: '6.3',
    data_api_version: '3.0',
    routing_model: Object.fromEntries(ids.map((id, i) => [id, i + 1 < ids.length ? [ids[i + 1]] : []])),
    screens: ids.map((_, i) => screen(i, exampleItems)),
  }
}

const bytes = (document: unknown) => Buffer.byteLength(JSON.stringify(document), 'utf8')

/** A valid document of about `targetBytes` of JSON. */
export function generateLargeFlow(targetBytes = TARGET_BYTES): Json {
  const small = build(10)
  const perItem = (bytes(build(20)) - bytes(small)) / 10
  return build(Math.max(0, Math.round(10 + (targetBytes - bytes(small)) / perItem)))
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] as number
}

if (import.meta.main) {
  const RUNS = Number(process.env.BENCH_RUNS ?? 15)
  const document = generateLargeFlow()
  const size = bytes(document)
  const report = validateMetaFlow(document)
  if (report.errors.length > 0) throw new Error(`the generated document is invalid: ${JSON.stringify(report.errors.slice(0, 3))}`)

  const validateTimes: number[] = []
  const baselineTimes: number[] = []
  for (let run = 0; run < RUNS + 2; run++) {
    let start = performance.now()
    validateMetaFlow(document)
    const validated = performance.now() - start
    start = performance.now()
    JSON.parse(JSON.stringify(document))
    const baseline = performance.now() - start
    // The first two rounds warm up the JIT and are not counted.
    if (run >= 2) {
      validateTimes.push(validated)
      baselineTimes.push(baseline)
    }
  }
  const validateMedian = median(validateTimes)
  const baselineMedian = median(baselineTimes)
  console.log(`bench:meta  ${(size / 1024 / 1024).toFixed(2)} MB (${size} bytes), ${SCREENS} screens, ${RUNS} runs after 2 warm-up runs`)
  console.log(`validateMetaFlow:                  median ${validateMedian.toFixed(1)} ms (min ${Math.min(...validateTimes).toFixed(1)}, max ${Math.max(...validateTimes).toFixed(1)})`)
  console.log(`baseline JSON.parse(stringify()):  median ${baselineMedian.toFixed(1)} ms (min ${Math.min(...baselineTimes).toFixed(1)}, max ${Math.max(...baselineTimes).toFixed(1)})`)
  console.log(`ratio validate/baseline: ${(validateMedian / baselineMedian).toFixed(2)}; errors ${report.errors.length}, warnings ${report.warnings.length}`)
}
