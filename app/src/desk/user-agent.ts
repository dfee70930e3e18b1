import { t } from '../i18n/language.ts'

/** Browsers by the token that names them, most specific first (Edge and Opera say "Chrome" too). */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\bOPR\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bHeadlessChrome\/(\d+)/, 'Chrome (headless)'],
  [/\b(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
]

function system(agent: string): string | null {
  const ios = /\b(iPhone|iPad)\b.*? OS (\d+)_/.exec(agent)
  if (ios) return `${ios[1]} (iOS ${ios[2]})`
  const android = /\bAndroid (\d+)/.exec(agent)
  if (android) return `Android ${android[1]}`
  if (/\bCrOS\b/.test(agent)) return 'ChromeOS'
  if (/\bWindows\b/.test(agent)) return 'Windows'
  if (/\bMac OS X\b/.test(agent)) return 'macOS'
  if (/\bLinux\b/.test(agent)) return 'Linux'
  return null
}

/**
 * The browser and system a User-Agent header names, as a person says it ("Chrome 156 on
 * Linux"). The common browsers only: anything else is shown as it came, cut to a line. (A
 * parsing library would weigh more than the desk's whole list screen, for one label.)
 */
export function describeBrowser(agent: string): string {
  const browser = BROWSERS.map(([pattern, name]) => [pattern.exec(agent), name] as const).find(([found]) => found)
  const on = system(agent)
  if (!browser) return agent.length > 120 ? `${agent.slice(0, 119)}…` : agent
  const [found, name] = browser
  const [label, tag] = name.endsWith('(headless)') ? ['Chrome', ' (headless)'] : [name, '']
  const browserName = `${label} ${found![1]}${tag}`
  return on ? t('desk.browserOn', { browser: browserName, system: on }) : browserName
}
