import { For, Show } from 'solid-js'
import { HEX_COLOR } from '../../../../server/protocol/widget-config-defaults.ts'
import { checkPrimaryColour, shownRatio } from './contrast.ts'
import { t } from '../../i18n/language.ts'

/** Under the primary colour: the text the widget writes on it, and a warning when something falls below WCAG AA. */
export function ContrastNote(props: { primary: string; background: string }) {
  const check = () => (HEX_COLOR.test(props.primary.trim()) ? checkPrimaryColour(props.primary.trim(), HEX_COLOR.test(props.background.trim()) ? props.background.trim() : '#ffffff') : null)
  return (
    <Show when={check()}>
      {(shown) => (
        <span class="contrast" data-contrast={shown().warnings.length > 0 ? 'low' : 'ok'}>
          <span class="limit">
            {t('widget.contrast', { colour: shown().text === '#ffffff' ? t('widget.white') : t('widget.black'), ratio: shownRatio(shown().textRatio), background: shownRatio(shown().backgroundRatio) })}
          </span>
          <For each={shown().warnings}>
            {(warning) => (
              <span class="field-warning" role="status" data-contrast-warning>
                {warning}
              </span>
            )}
          </For>
        </span>
      )}
    </Show>
  )
}
