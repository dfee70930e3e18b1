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

/**
 * The app's English catalogue, in the first chunk: every key of the app and its English text.
 * One file per area (the desk, the pages, the shell, each console screen), merged here.
 */
export const EN = { ...shell, ...pages, ...desk, ...consoleShared, ...people, ...chatbots, ...widget, ...integrations, ...flows, ...builder, ...builderPanel, ...builderModel } as const
