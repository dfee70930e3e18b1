import { createResource, createSignal, For, onCleanup, Show } from 'solid-js'
import { consoleApi } from '../console-api.ts'
import { createAction, ErrorLine, when } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

/**
 * The published versions: any two compared side by side (the working copy counts as one),
 * and an old one restored as the working copy (published again only when you publish).
 */
export function Versions(props: { botId: string; flowId: string; current: () => string; published: () => number | null; onRestore: (definition: unknown) => void }) {
  const [versions] = createResource(
    () => [props.botId, props.flowId, props.published()] as const,
    ([bot, flow]) => consoleApi.versions(bot, flow),
  )
  const [left, setLeft] = createSignal('')
  const [right, setRight] = createSignal('working')
  const { error, act } = createAction()
  let host!: HTMLDivElement
  let merge: { destroy(): void } | undefined
  let shadow: ShadowRoot | undefined
  onCleanup(() => merge?.destroy())

  const textOf = async (which: string) =>
    which === 'working' ? props.current() : JSON.stringify((await consoleApi.version(props.botId, props.flowId, Number(which))).flow, null, 2)

  const compare = () =>
    act(async () => {
      const [{ MergeView }, { EditorView }, { EditorState }, { json }] = await Promise.all([import('@codemirror/merge'), import('@codemirror/view'), import('@codemirror/state'), import('@codemirror/lang-json')])
      const [a, b] = await Promise.all([textOf(left() || String(versions()?.items[0]?.version ?? 1)), textOf(right())])
      merge?.destroy()
      const readOnly = [json(), EditorState.readOnly.of(true), EditorView.editable.of(false)]
      // In a shadow root, for the same reason as the editor: the CSP refuses <style> in the page.
      shadow ??= host.attachShadow({ mode: 'open' })
      merge = new MergeView({ a: { doc: a, extensions: readOnly }, b: { doc: b, extensions: readOnly }, parent: shadow, root: shadow, collapseUnchanged: { margin: 2 } })
    })
  const restore = (version: number) =>
    act(async () => {
      props.onRestore((await consoleApi.version(props.botId, props.flowId, version)).flow)
    })

  return (
    <section class="card versions">
      <h2>{t('versions.title')}</h2>
      <Show when={(versions()?.items.length ?? 0) > 0} fallback={<p class="muted">{t('versions.none')}</p>}>
        <ul class="issues">
          <For each={versions()?.items}>
            {(version) => (
              <li class="actions" data-version={version.version}>
                <span>
                  {t('versions.version', { version: String(version.version) })} {version.version === props.published() ? t('versions.live') : ''} <span class="muted">{when(version.published_at)}</span>
                </span>
                <button type="button" class="link" onClick={() => void restore(version.version)}>
                  {t('versions.restore')}
                </button>
              </li>
            )}
          </For>
        </ul>
        <div class="inline-form">
          <label>
            {t('versions.compare')}
            <select name="diff_left" value={left()} onChange={(e) => setLeft(e.currentTarget.value)}>
              <For each={versions()?.items}>{(version) => <option value={String(version.version)}>{t('versions.option', { version: String(version.version) })}</option>}</For>
            </select>
          </label>
          <label>
            {t('versions.with')}
            <select name="diff_right" value={right()} onChange={(e) => setRight(e.currentTarget.value)}>
              <option value="working">{t('versions.working')}</option>
              <For each={versions()?.items}>{(version) => <option value={String(version.version)}>{t('versions.option', { version: String(version.version) })}</option>}</For>
            </select>
          </label>
          <button type="button" onClick={() => void compare()}>
            {t('versions.show')}
          </button>
        </div>
      </Show>
      <ErrorLine error={error()} />
      <div class="diff" ref={host} data-diff />
    </section>
  )
}
