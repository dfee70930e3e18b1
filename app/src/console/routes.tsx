import type { RouteDefinition } from '@solidjs/router'
import { type JSX, lazy } from 'solid-js'

/**
 * The console's screens under /app/console, each loaded when first opened: the list of
 * chatbots costs nothing of the flow editor (CodeMirror, dagre), and the desk nothing of any.
 */
const Frame = lazy(() => import('./ConsoleLayout.tsx'))
const routes: RouteDefinition[] = [
  { path: '/', component: lazy(() => import('./chatbots/ChatbotsScreen.tsx')) },
  { path: '/bots/:botId', component: lazy(() => import('./chatbots/OverviewScreen.tsx')) },
  { path: '/bots/:botId/widget', component: lazy(() => import('./widget/WidgetScreen.tsx')) },
  { path: '/bots/:botId/flows', component: lazy(() => import('./flows/FlowsScreen.tsx')) },
  { path: '/bots/:botId/flows/:flowId', component: lazy(() => import('./flows/FlowEditorScreen.tsx')) },
  { path: '/bots/:botId/integrations', component: lazy(() => import('./integrations/IntegrationsScreen.tsx')) },
  { path: '/bots/:botId/hours', component: lazy(() => import('./chatbots/HoursScreen.tsx')) },
  { path: '/people', component: lazy(() => import('./people/PeopleScreen.tsx')) },
  { path: '/keys', component: lazy(() => import('./keys/KeysScreen.tsx')) },
  { path: '/operations', component: lazy(() => import('./operations/OperationsScreen.tsx')) },
]

/** For the shell's router: the console's routes as children of /console. */
export const consoleRoutes = routes as unknown as JSX.Element

export function ConsoleFrame(props: { children?: JSX.Element }) {
  return <Frame>{props.children}</Frame>
}
