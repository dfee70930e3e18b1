import { Elysia, t } from 'elysia'
import { MEDIA_TYPE } from '../http/openapi.ts'
import { PREVIEW_PAGE, PREVIEW_SCRIPT } from './preview-script.ts'

const detail = { tags: ['Widget'], security: [] }

/**
 * The page the console frames to preview the web widget with unsaved settings: the real
 * widget script, its configuration request answered from the page's own `#` fragment. It
 * holds no data of its own; the widget key in the fragment is public like every embed's.
 */
export function widgetPreviewRoutes() {
  return new Elysia()
    .get('/widget/v1/preview', () => new Response(PREVIEW_PAGE, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } }), {
      response: { 200: t.String({ [MEDIA_TYPE]: 'text/html' }) },
      detail: { ...detail, summary: 'Widget preview page', description: 'Framed by the console (same origin only). Settings after # as JSON: widget_key, name, greeting_message, widget_config.' },
    })
    .get('/widget/v1/preview.js', () => new Response(PREVIEW_SCRIPT, { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } }), {
      detail: { ...detail, hide: true },
    })
}
