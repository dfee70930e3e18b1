import { Elysia, t } from 'elysia'
import { notFound } from '../http/api-error.ts'
import { WIDGET_LOCALES, WIDGET_TEXTS_PATH } from '../protocol/widget-locales.ts'
import { widgetTextAssets } from './widget-texts.ts'
import chatStylesheetPath from '../../dist/widget/widget-chat.css' with { type: 'file' }
import chatScriptPath from '../../dist/widget/widget-chat.js' with { type: 'file' }
import liveScriptPath from '../../dist/widget/widget-live.js' with { type: 'file' }
import widgetPath from '../../dist/widget/widget.js' with { type: 'file' }
import { demoPage } from './demo-page.ts'
import { type BootConfigFor, keyedWidgetScript } from './keyed-widget-script.ts'
import { assetResponse, prepareAsset, type WidgetAsset } from './widget-asset.ts'

export interface WidgetAssetOptions {
  /** The demo chatbot's widget key, or null when there is no demo web integration. */
  demoWidgetKey: () => Promise<string | null>
  /** PARLEY_PUBLIC_URL: where another site loads the widget from, in the snippet to copy. */
  publicUrl: string
  /** Defaults to the built dist/widget/widget.js (embedded in the compiled binary). */
  widgetFile?: string
  /** Defaults to the built dist/widget/widget-chat.css (embedded in the compiled binary). */
  chatStylesheetFile?: string
  /** Defaults to the built dist/widget/widget-chat.js (embedded in the compiled binary). */
  chatScriptFile?: string
  /** Defaults to the built dist/widget/widget-live.js (embedded in the compiled binary). */
  liveScriptFile?: string
  /** A widget's configuration for a page's origin, put in front of /widget.js?key=... (none: that address is the plain script). */
  bootConfigFor?: BootConfigFor
}

const detail = { tags: ['Widget'], security: [] }

/**
 * GET /widget.js: the embeddable widget, compressed once at start, cached by browsers for
 * five minutes and revalidated by ETag; any site may load it. GET /: the demo page. Their
 * security headers (nosniff, the demo page's Content-Security-Policy) are added as the
 * answers leave the app, by http/security-headers.ts.
 */
export function widgetAssetRoutes({
  demoWidgetKey,
  publicUrl,
  widgetFile = widgetPath,
  chatStylesheetFile = chatStylesheetPath,
  chatScriptFile = chatScriptPath,
  liveScriptFile = liveScriptPath,
  bootConfigFor,
}: WidgetAssetOptions) {
  const loader = prepareAsset(widgetFile)
  const script = servedAsset(loader, 'text/javascript; charset=utf-8')
  const keyedScript = bootConfigFor ? keyedWidgetScript(loader.identity.body, bootConfigFor) : null
  const liveScript = versionedAsset(liveScriptFile)
  const chatScript = versionedAsset(chatScriptFile)
  const chatStylesheet = servedAsset(prepareAsset(chatStylesheetFile), 'text/css; charset=utf-8')
  const texts = widgetTextAssets()
  return new Elysia()
    .get(
      '/widget.js',
      async ({ request, query }) => (query.key && keyedScript ? await keyedScript(request, query.key) : null) ?? script(request),
      {
        query: t.Object({ key: t.Optional(t.String({ maxLength: 200, description: "the widget's wk_... key: the script then carries its configuration (for a page the widget may show on), sparing a first visit a round trip" })) }),
        detail: {
          ...detail,
          summary: 'The embeddable web widget script',
          description:
            'Embed with `<script src="{base_url}/widget.js?key=wk_..." data-widget-key="wk_..." async></script>` (the console gives this snippet). One self-contained script; gzip or brotli by Accept-Encoding; strong ETag with 304 on If-None-Match. Without `key` (or for a page the widget may not show on, or with no Referer) it is the same script for everyone, cached five minutes; with it, the widget\'s configuration comes in front of it, cached privately for a minute.',
        },
      },
    )
    .get('/widget-live.js', ({ request }) => liveScript(request), {
      detail: {
        ...detail,
        summary: "The widget's session, socket and language",
        description:
          "Added by widget.js as soon as the bubble is drawn (or clicked): everything but the bubble and the open chat (the conversation's socket, the widget's language, the preview of a new message). It runs only inside widget.js's handle. widget.js asks for it with `?v=` and the build's hash: that answer is cached for a year (`immutable`); any other is cached as /widget.js is.",
      },
    })
    .get('/widget-chat.js', ({ request }) => chatScript(request), {
      detail: {
        ...detail,
        summary: "The open chat's script",
        description:
          "Loaded by widget-live.js when the chat is first opened (the message log, the composer, file uploads), so the scripts every page loads stay small. It runs only inside widget-live.js's runtime. Asked for with `?v=` and the build's hash, so a page never mixes versions: that answer is cached for a year (`immutable`), any other as /widget.js is.",
      },
    })
    .get('/widget-chat.css', ({ request }) => chatStylesheet(request), {
      detail: {
        ...detail,
        summary: "The open chat's stylesheet",
        description: 'Loaded by widget.js when the chat is first opened, so the script that every page loads stays small. Cached and compressed as /widget.js is.',
      },
    })
    .get(
      `${WIDGET_TEXTS_PATH}:file`,
      ({ params, request }) => {
        const asset = texts.get(params.file.replace(/\.json$/, ''))
        if (!asset || !params.file.endsWith('.json')) throw notFound('widget language')
        return assetResponse(request, asset, 'application/json; charset=utf-8', COMMON_HEADERS)
      },
      {
        params: t.Object({ file: t.String({ maxLength: 16, description: `a language tag and .json: ${WIDGET_LOCALES.join(', ')}` }) }),
        detail: {
          ...detail,
          summary: "One language's widget texts",
          description:
            "Fetched by widget.js once its configuration says which language it speaks (widget_config.locale, or the visitor's browser when it is auto): every text the widget shows, by key. English is inside widget.js. Cached and compressed as /widget.js is.",
        },
      },
    )
    .get(
      '/',
      async () => new Response(demoPage(await demoWidgetKey(), publicUrl), { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' } }),
      { detail: { ...detail, summary: 'Demo page embedding the demo chatbot widget (HTML)' } },
    )
}

const COMMON_HEADERS = {
  'cache-control': 'public, max-age=300',
  'access-control-allow-origin': '*',
  'cross-origin-resource-policy': 'cross-origin',
}

/** Answers a request for one of the widget's files: any site may load it, cached five minutes. */
function servedAsset(asset: WidgetAsset, contentType: string) {
  return (request: Request): Response | Promise<Response> => assetResponse(request, asset, contentType, COMMON_HEADERS)
}

/**
 * A script the widget asks for with `?v=` and the hash of its bytes (scripts/build-widget.ts's
 * scriptVersion): asked for with this build's hash, it never changes at that address, so a
 * returning visitor's browser runs it from its cache without asking again; any other `v` (a
 * page still running an older widget.js) gets these bytes cached as briefly as widget.js.
 */
function versionedAsset(file: string) {
  const asset = prepareAsset(file)
  const version = Bun.hash(new TextDecoder().decode(asset.identity.body)).toString(36)
  const immutable = { ...COMMON_HEADERS, 'cache-control': 'public, max-age=31536000, immutable' }
  return (request: Request): Response | Promise<Response> => {
    const asked = new URL(request.url).searchParams.get('v')
    return assetResponse(request, asset, 'text/javascript; charset=utf-8', asked === version ? immutable : COMMON_HEADERS)
  }
}
