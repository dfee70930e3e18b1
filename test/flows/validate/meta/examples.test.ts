import { describe, expect, test } from 'bun:test'
import { type Json, clone, errorsOf, examples } from './support.ts'

type Screen = Json & { layout: { children: Json[] } }

const screensOf = (document: Json) => document.screens as Screen[]

/** Removes every Footer from a component list, looking into Forms and If/Switch branches. */
function withoutFooters(children: Json[]): Json[] {
  return children
    .filter((child) => child.type !== 'Footer')
    .map((child) => {
      const copy = { ...child }
      for (const key of ['children', 'then', 'else']) if (Array.isArray(copy[key])) copy[key] = withoutFooters(copy[key] as Json[])
      if (copy.cases && typeof copy.cases === 'object') {
        copy.cases = Object.fromEntries(Object.entries(copy.cases as Record<string, Json[]>).map(([key, list]) => [key, withoutFooters(list)]))
      }
      return copy
    })
}

/** Appends a component to the first screen and answers its path. */
function appendToFirstScreen(document: Json, component: Json): string {
  const children = (screensOf(document)[0] as Screen).layout.children
  children.push(component)
  return `/screens/0/layout/children/${children.length - 1}`
}

describe('the provider examples', () => {
  for (const [file, name, document] of examples()) {
    test(`${file} ${name} validates with no errors`, () => {
      expect(errorsOf(document)).toEqual([])
    })
  }
})

describe('broken copies of the provider examples', () => {
  for (const [file, name, document] of examples()) {
    describe(`${file} ${name}`, () => {
      test('a duplicate screen id is refused at the second screen', () => {
        const broken = clone(document)
        const screens = screensOf(broken)
        if (screens.length === 1) screens.push(clone(screens[0] as Screen))
        else (screens[1] as Screen).id = (screens[0] as Screen).id
        expect(errorsOf(broken)).toContain('DUPLICATE_SCREEN_IDS /screens/1/id')
      })

      test('navigating to a missing screen is refused at the target name', () => {
        const broken = clone(document)
        const path = appendToFirstScreen(broken, {
          type: 'EmbeddedLink',
          text: 'Elsewhere',
          'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'NOWHERE' }, payload: {} },
        })
        expect(errorsOf(broken)).toContain(`INVALID_NAVIGATE_ACTION_NEXT_SCREEN_NAME ${path}/on-click-action/next/name`)
      })

      test('a terminal screen without a Footer is refused at that screen', () => {
        const broken = clone(document)
        const index = screensOf(broken).findIndex((screen) => screen.terminal === true)
        const terminal = screensOf(broken)[index] as Screen
        terminal.layout.children = withoutFooters(terminal.layout.children)
        expect(errorsOf(broken)).toContain(`MISSING_FOOTER_ON_TERMINAL_SCREEN /screens/${index}`)
      })

      test('an undeclared ${data.x} is refused where it is bound', () => {
        const broken = clone(document)
        const path = appendToFirstScreen(broken, { type: 'TextBody', text: '${data.not_declared}' })
        expect(errorsOf(broken)).toContain(`INVALID_SCREEN_DYNAMIC_DATA ${path}/text`)
      })

      test('a component newer than the flow version is refused at its type', () => {
        const broken = clone(document)
        const path = appendToFirstScreen(broken, { type: 'ImageCarousel', images: [{ src: 'aGk=', 'alt-text': 'A picture' }] })
        expect(errorsOf(broken)).toContain(`REQUIRES_NEWER_FLOW_JSON_VERSION ${path}/type`)
      })
    })
  }
})
