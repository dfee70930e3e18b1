import type { TextKey, Entry } from '../catalogue.ts'
import { consoleShared } from './console.ts'
import { desk } from './desk.ts'
import { builder } from './builder.ts'
import { builderPanel } from './builder-panel.ts'
import { builderModel } from './builder-model.ts'
import { flows } from './flows.ts'
import { integrations } from './integrations.ts'
import { widget } from './widget.ts'
import { chatbots } from './chatbots.ts'
import { people } from './people.ts'
import { pages } from './pages.ts'
import { shell } from './shell.ts'

/** The app's Spanish catalogue: a lazy chunk of its own, loaded only when a person's language is Spanish. */
export const ES: Record<TextKey, Entry> = { ...shell, ...pages, ...desk, ...consoleShared, ...people, ...chatbots, ...widget, ...integrations, ...flows, ...builder, ...builderPanel, ...builderModel }
