import { Elysia, t } from 'elysia'
import appScriptPath from '../../dist/app/app.js' with { type: 'file' }
import appStylesPath from '../../dist/app/app.css' with { type: 'file' }
import appChunkFiles from '../../dist/app/chunks.js'
import { ApiError } from '../http/api-error.ts'
import { assetResponse, prepareAsset, type WidgetAsset } from '../widget-assets/widget-asset.ts'
import { appPage } from './app-page.ts'

export interface AppAssetOptions {
  /** Default to the built dist/app files (embedded in the compiled binary). */
  scriptFile?: string
  stylesFile?: string
  /** The lazily loaded chunks (the console's screens) by file name. */
  chunkFiles?: Record<string, string>
}

/** Assets are named by their hash: a new build gets new names, so browsers may keep a copy a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable'

/**
 * The desk app: GET /app and GET /app/* answer its HTML page (revalidated on every load, so
 * a new binary's app is picked up at once); GET /app/assets/app-{hash}.js and .css its files,
 * each coding compressed once when first asked for, cached for a year and revalidated by
 * ETag. The page's CSP and other security headers are added as the answers leave, by
 * http/security-headers.ts.
 */
export function appAssetRoutes({ scriptFile = appScriptPath, stylesFile = appStylesPath, chunkFiles = appChunkFiles }: AppAssetOptions = {}) {
  const script = prepareAsset(scriptFile)
  const styles = prepareAsset(stylesFile)
  const assets = new Map<string, { asset: WidgetAsset; type: string }>([
    [`app-${script.hash}.js`, { asset: script, type: 'text/javascript; charset=utf-8' }],
    [`app-${styles.hash}.css`, { asset: styles, type: 'text/css; charset=utf-8' }],
  ])
  // Named by Vite with a hash of their content and what they import, so they may be cached a year too.
  const chunks = new Map(Object.entries(chunkFiles).map(([name, file]) => [name, prepareAsset(file)]))
  const html = appPage(`/app/assets/app-${script.hash}.js`, `/app/assets/app-${styles.hash}.css`)
  const page = prepareAsset(new TextEncoder().encode(html))

  const serve = (request: Request, asset: WidgetAsset, type: string, cacheControl: string) =>
    assetResponse(request, asset, type, { 'cache-control': cacheControl })
  const answerPage = ({ request }: { request: Request }) => serve(request, page, 'text/html; charset=utf-8', 'no-cache')
  const pageDetail = { tags: ['Desk'], security: [] }

  return new Elysia()
    // Pages and files of the app, not operations of the API: left out of the OpenAPI document.
    .get('/app', answerPage, { detail: { ...pageDetail, hide: true } })
    .get('/app/*', answerPage, { detail: { ...pageDetail, hide: true } })
    .get(
      '/app/assets/:file',
      ({ request, params }) => {
        const found = assets.get(params.file)
        if (!found) throw new ApiError(404, 'not_found', 'no such file: the desk was updated; reload the page')
        return serve(request, found.asset, found.type, IMMUTABLE)
      },
      { params: t.Object({ file: t.String() }), detail: { ...pageDetail, hide: true } },
    )
    .get(
      '/app/assets/chunks/:file',
      ({ request, params }) => {
        const found = chunks.get(params.file)
        if (!found) throw new ApiError(404, 'not_found', 'no such file: the app was updated; reload the page')
        return serve(request, found, 'text/javascript; charset=utf-8', IMMUTABLE)
      },
      { params: t.Object({ file: t.String() }), detail: { ...pageDetail, hide: true } },
    )
}
