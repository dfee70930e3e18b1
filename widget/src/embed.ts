import { createWidgetApi, installWidgetApi, isWidgetInstalled } from './api.ts'
import { findWidgetScript, readEmbedOptions } from './embed-options.ts'
import { startWidget } from './start.ts'

/**
 * The entry of widget.js. It only acts in a browser: evaluated where there is no window or
 * document (server-side rendering), it does nothing at all. It runs once per page however
 * often the script is included, and reads its own script element before anything async.
 */
function boot(): void {
  if (typeof window === 'undefined' || typeof document === 'undefined') return
  const warn = (message: string) => console.warn(`ParleyWidget: ${message}`)
  if (isWidgetInstalled(window)) return warn('the widget script is included more than once; only the first copy runs')
  const options = readEmbedOptions(findWidgetScript(document))
  if ('problem' in options) return warn(options.problem)
  const profile = { contactDetails: {} }
  const { api, listen } = createWidgetApi(profile, warn)
  installWidgetApi(window, api, warn)
  startWidget(options, profile, listen, warn).catch((error: unknown) => warn(error instanceof Error ? error.message : String(error)))
}

boot()
