import type { WidgetLocale } from '../protocol/widget-locales.ts'
import { EN_TEXTS, type WidgetTexts } from '../protocol/widget-texts/en.ts'
import ar from '../protocol/widget-texts/ar.json'
import de from '../protocol/widget-texts/de.json'
import es from '../protocol/widget-texts/es.json'
import fr from '../protocol/widget-texts/fr.json'
import he from '../protocol/widget-texts/he.json'
import it from '../protocol/widget-texts/it.json'
import ja from '../protocol/widget-texts/ja.json'
import nl from '../protocol/widget-texts/nl.json'
import pl from '../protocol/widget-texts/pl.json'
import pt from '../protocol/widget-texts/pt.json'
import tr from '../protocol/widget-texts/tr.json'
import zh from '../protocol/widget-texts/zh.json'
import { prepareAsset, type WidgetAsset } from './widget-asset.ts'

/**
 * Every language's catalogue, by tag (imported, so the compiled binary carries them). A new
 * language is a JSON file in protocol/widget-texts/, one line here and its tag in
 * WIDGET_LOCALES; test/widget/texts.test.ts holds them to English's keys and places.
 */
export const WIDGET_TEXTS: Readonly<Record<WidgetLocale, WidgetTexts>> = { en: EN_TEXTS, es, fr, de, pt, it, nl, pl, tr, ar, he, ja, zh }

/** Each catalogue as the widget downloads it: compact JSON, compressed when first asked for. */
export function widgetTextAssets(): Map<string, WidgetAsset> {
  return new Map(Object.entries(WIDGET_TEXTS).map(([tag, texts]) => [tag, prepareAsset(new TextEncoder().encode(JSON.stringify(texts)))]))
}
