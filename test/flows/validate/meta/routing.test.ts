import { describe, expect, test } from 'bun:test'
import { type Json, body, chain, end, errorsOf, flow, navigateFooter, navigateLink, screen, warningsOf } from './support.ts'

const exchangeFooter = (): Json => ({ type: 'Footer', label: 'Next', 'on-click-action': { name: 'data_exchange', payload: {} } })

/** A flow with an endpoint: every screen but the terminal ones sends data_exchange. */
function endpointFlow(model: Record<string, string[]>, terminals: string[] = []): Json {
  const ids = [...new Set([...Object.keys(model), ...Object.values(model).flat()])]
  return flow(
    ids.map((id) => (terminals.includes(id) ? end(id) : screen(id, [exchangeFooter()]))),
    { data_api_version: '3.0', routing_model: model },
  )
}

describe('data_exchange needs data_api_version, which needs routing_model (MISSING_REQUIRED_PROPERTY)', () => {
  test('data_exchange without data_api_version is refused at /data_api_version', () => {
    expect(errorsOf(flow([screen('A', [exchangeFooter()], { terminal: true })]))).toEqual(['MISSING_REQUIRED_PROPERTY /data_api_version'])
  })

  test('data_api_version without routing_model is refused at /routing_model', () => {
    expect(errorsOf(flow([screen('A', [exchangeFooter()], { terminal: true })], { data_api_version: '3.0' }))).toEqual(['MISSING_REQUIRED_PROPERTY /routing_model'])
  })

  test('data_exchange with both: no finding', () => {
    expect(errorsOf(endpointFlow({ A: ['B'], B: [] }, ['B']))).toEqual([])
  })
})

describe('Routing model: every screen is a key, and every key and target exists (INVALID_ROUTING_MODEL)', () => {
  test('a key that is not a screen is refused at that key', () => {
    const document = endpointFlow({ A: ['B'], B: [] }, ['B'])
    ;(document.routing_model as Record<string, string[]>).NOPE = []
    expect(errorsOf(document)).toEqual(['INVALID_ROUTING_MODEL /routing_model/NOPE'])
  })

  test('a target that is not a screen is refused at that target', () => {
    const document = endpointFlow({ A: ['B'], B: [] }, ['B'])
    ;(document.routing_model as Record<string, string[]>).B = ['GHOST']
    expect(errorsOf(document)).toEqual(['INVALID_ROUTING_MODEL /routing_model/B/0'])
  })

  test('a screen missing as a key only warns, as in the provider samples', () => {
    const document = endpointFlow({ A: ['B'] }, ['B'])
    expect(errorsOf(document)).toEqual([])
    expect(warningsOf(document)).toContain('INVALID_ROUTING_MODEL /routing_model/B')
  })

  test('routes that are not an array are refused', () => {
    const document = endpointFlow({ A: ['B'], B: [] }, ['B'])
    ;(document.routing_model as Record<string, unknown>).B = 'A'
    expect(errorsOf(document)).toEqual(['INVALID_PROPERTY_TYPE /routing_model/B'])
  })
})

describe('Routing model: all screens are connected (INVALID_ROUTING_MODEL)', () => {
  test('a screen no route touches is refused at its key', () => {
    expect(errorsOf(endpointFlow({ A: ['B'], B: [], C: [] }, ['B', 'C']))).toEqual(['INVALID_ROUTING_MODEL /routing_model/C'])
  })

  test('two routes into one screen keep everything connected', () => {
    expect(errorsOf(endpointFlow({ A: ['B', 'C'], B: ['D'], C: ['D'], D: [] }, ['D']))).toEqual([])
  })
})

describe('Routing model: there is an entry screen with no inbound edge (INVALID_ROUTING_MODEL)', () => {
  test('when every screen has a way in, the model is refused at /routing_model', () => {
    expect(errorsOf(endpointFlow({ A: ['B'], B: ['C'], C: ['A'] }, ['C']))).toContain('INVALID_ROUTING_MODEL /routing_model')
  })

  test('one screen without a way in is the entry: no finding', () => {
    expect(errorsOf(endpointFlow({ A: ['B'], B: ['C'], C: [] }, ['C']))).toEqual([])
  })
})

describe('Routing model: no loops (INVALID_ROUTING_MODEL)', () => {
  test('a loop through three screens is refused at its first screen', () => {
    expect(errorsOf(endpointFlow({ A: ['B'], B: ['C'], C: ['D'], D: ['B'] }, ['D']))).toEqual(['INVALID_ROUTING_MODEL /routing_model/B'])
  })

  test('a diamond is not a loop', () => {
    expect(errorsOf(endpointFlow({ A: ['B', 'C'], B: ['D'], C: ['D'], D: [] }, ['D']))).toEqual([])
  })
})

describe('Routing model: no B→A edge where A→B exists (INVALID_ROUTING_MODEL)', () => {
  test('the backward route is refused at its entry', () => {
    expect(errorsOf(endpointFlow({ E: ['A'], A: ['B'], B: ['A'] }, ['B']))).toEqual(['INVALID_ROUTING_MODEL /routing_model/B/0'])
  })

  test('forward routes only: no finding', () => {
    expect(errorsOf(endpointFlow({ E: ['A'], A: ['B'], B: [] }, ['B']))).toEqual([])
  })
})

describe('Routing model: at most 10 branches per screen (INVALID_ROUTING_MODEL)', () => {
  const targets = (n: number) => Array.from({ length: n }, (_, i) => `T${String.fromCharCode(65 + i)}`)

  test('11 branches are refused at the screen', () => {
    const list = targets(11)
    expect(errorsOf(endpointFlow({ A: list, ...Object.fromEntries(list.map((id) => [id, []])) }, list))).toEqual(['INVALID_ROUTING_MODEL /routing_model/A'])
  })

  test('10 branches are accepted', () => {
    const list = targets(10)
    expect(errorsOf(endpointFlow({ A: list, ...Object.fromEntries(list.map((id) => [id, []])) }, list))).toEqual([])
  })
})

describe('Routing model: no self-route (INVALID_ROUTING_MODEL)', () => {
  test('a screen routing to itself is refused at that route', () => {
    expect(errorsOf(endpointFlow({ A: ['A', 'B'], B: [] }, ['B']))).toEqual(['INVALID_ROUTING_MODEL /routing_model/A/0'])
  })
})

describe('Routing model: every navigate edge is listed (INVALID_ROUTING_MODEL)', () => {
  const withNavigate = (model: Record<string, string[]>) =>
    flow([screen('A', [navigateFooter('B')]), end('B')], { data_api_version: '3.0', routing_model: model })

  test('a navigate action the model does not list is refused at its target', () => {
    expect(errorsOf(withNavigate({ A: ['B'], B: [] }))).toEqual([])
    expect(errorsOf(withNavigate({ A: [], B: [] }))).toContain('INVALID_ROUTING_MODEL /screens/0/layout/children/0/on-click-action/next/name')
  })

  test('a routing model without an endpoint is still checked, as in the provider samples', () => {
    expect(errorsOf(flow([screen('A', [navigateFooter('B')]), end('B')], { routing_model: { A: ['B'], B: [] } }))).toEqual([])
    expect(errorsOf(flow([screen('A', [navigateFooter('B')]), end('B')], { routing_model: { A: [], B: [] } }))).toContain(
      'INVALID_ROUTING_MODEL /screens/0/layout/children/0/on-click-action/next/name',
    )
  })
})

describe('Flows without an endpoint: the same checks on the navigate graph (INVALID_ROUTING_MODEL)', () => {
  test('a linear flow is accepted', () => {
    expect(errorsOf(chain(['A', 'B', 'C']))).toEqual([])
  })

  test('a screen no navigate action reaches is refused at that screen', () => {
    expect(errorsOf(flow([screen('A', [navigateFooter('B')]), end('B'), end('C')]))).toEqual(['INVALID_ROUTING_MODEL /screens/2'])
  })

  test('when every screen is navigated to, there is no entry screen', () => {
    const document = flow([screen('A', [navigateFooter('B')]), end('B', [navigateLink('A')])])
    expect(errorsOf(document)).toContain('INVALID_ROUTING_MODEL /screens')
  })

  test('navigating back to an earlier screen is refused at that action', () => {
    const document = flow([screen('E', [navigateFooter('A')]), screen('A', [navigateFooter('B')]), end('B', [navigateLink('A')])])
    expect(errorsOf(document)).toEqual(['INVALID_ROUTING_MODEL /screens/2/layout/children/0/on-click-action/next/name'])
  })

  test('a loop through three screens is refused at its first screen', () => {
    const document = flow([screen('E', [navigateFooter('A')]), screen('A', [navigateFooter('B')]), screen('B', [navigateFooter('C')]), end('C', [navigateLink('A')])])
    expect(errorsOf(document)).toEqual(['INVALID_ROUTING_MODEL /screens/1'])
  })

  test('more than 10 navigate targets from one screen are refused at that screen', () => {
    const ids = Array.from({ length: 11 }, (_, i) => `T${String.fromCharCode(65 + i)}`)
    const menu = (count: number): Json => ({
      type: 'NavigationList',
      name: 'menu',
      'list-items': ids.slice(0, count).map((id) => ({
        id,
        'main-content': { title: id },
        'on-click-action': { name: 'navigate', next: { type: 'screen', name: id }, payload: {} },
      })),
    })
    expect(errorsOf(flow([screen('A', [menu(11)]), ...ids.map((id) => end(id))]))).toEqual(['INVALID_ROUTING_MODEL /screens/0'])
    expect(errorsOf(flow([screen('A', [menu(10)]), ...ids.slice(0, 10).map((id) => end(id))]))).toEqual([])
  })
})

describe('Every route ends at a terminal screen: only a warning (ROUTE_ENDS_AT_NON_TERMINAL_SCREEN)', () => {
  test('a route that ends on a non-terminal screen warns at that screen', () => {
    const document = flow([screen('A', [navigateFooter('B'), navigateLink('C')]), screen('B', [body('Terms')]), end('C')])
    expect(warningsOf(document)).toContain('ROUTE_ENDS_AT_NON_TERMINAL_SCREEN /screens/1')
    expect(errorsOf(document)).toEqual([])
  })

  test('routes that all end at terminal screens raise no warning', () => {
    expect(warningsOf(chain(['A', 'B']))).toEqual([])
  })
})
