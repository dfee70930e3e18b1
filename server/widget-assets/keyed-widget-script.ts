import type { WidgetBootConfig } from '../protocol/widget-protocol.ts'
import { assetResponse, transientAsset, type WidgetAsset } from './widget-asset.ts'

/** The configuration of a widget key for a page of an origin; null when that page would be refused. */
export type BootConfigFor = (widgetKey: string, origin: string | null) => Promise<WidgetBootConfig | null>

const WIDGET_KEY = /^wk_[A-Za-z0-9]{8,128}$/
/** Scripts kept made (one per key and configuration): the oldest goes first beyond this. */
const KEPT = 256

/**
 * /widget.js?key=wk_...: the same script with the widget's configuration in front, so a first
 * visit draws the bubble without another round trip (the snippet the console gives carries the
 * key in the address; data-widget-key stays the key the widget uses). The configuration is put
 * on the script's own element, not in a global, and the widget takes it only for its own key
 * and server. The page's origin is the Referer's (a script request has no Origin header), and
 * a page that would be refused, or that sends no Referer, gets the plain script, which asks
 * /widget/v1/config and says why. Cached privately for a minute, as the configuration is.
 */
export function keyedWidgetScript(loader: Uint8Array, bootConfigFor: BootConfigFor) {
  const made = new Map<string, WidgetAsset>()
  return async (request: Request, widgetKey: string): Promise<Response | null> => {
    if (!WIDGET_KEY.test(widgetKey)) return null
    const boot = await bootConfigFor(widgetKey, refererOrigin(request))
    if (!boot) return null
    // `<` escaped: the JSON stays inert even if someone pastes the script's text into a page.
    const given = JSON.stringify({ key: widgetKey, boot }).replaceAll('<', '\\u003c')
    const prefix = `(function(s){if(s)s.parleyBoot=${given}})(document.currentScript);\n`
    let asset = made.get(prefix)
    if (!asset) {
      const head = new TextEncoder().encode(prefix)
      const body = new Uint8Array(head.length + loader.length)
      body.set(head)
      body.set(loader, head.length)
      asset = transientAsset(body)
      made.set(prefix, asset)
      if (made.size > KEPT) made.delete(made.keys().next().value as string)
    }
    return await assetResponse(request, asset, 'text/javascript; charset=utf-8', KEYED_HEADERS)
  }
}

const KEYED_HEADERS = {
  'cache-control': 'private, max-age=60',
  vary: 'Referer',
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
}

function refererOrigin(request: Request): string | null {
  const referer = request.headers.get('referer')
  if (!referer) return null
  try {
    const { origin } = new URL(referer)
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}
