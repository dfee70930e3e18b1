/**
 * Flow JSON versions in use and the version each feature needs. Versions are compared as
 * numbers: "6.1" is 601.
 */

export const SUPPORTED_VERSIONS = ['2.1', '3.0', '3.1', '4.0', '5.0', '5.1', '6.0', '6.1', '6.2', '6.3', '7.0', '7.1', '7.2', '7.3'] as const

export const LATEST_VERSION = 703

const VERSION_FORMAT = /^(\d{1,3})\.(\d{1,2})$/

/** "6.1" → 601; null when the text is not a MAJOR.MINOR version. */
export function parseVersion(text: string): number | null {
  const match = VERSION_FORMAT.exec(text)
  if (!match) return null
  return Number(match[1]) * 100 + Number(match[2])
}

export function versionLabel(version: number): string {
  return `${Math.floor(version / 100)}.${version % 100}`
}

export const SUPPORTED_VERSION_NUMBERS: ReadonlySet<number> = new Set(SUPPORTED_VERSIONS.map((text) => parseVersion(text) as number))

/** Features that are not a component or a component property (those carry `since` in the catalog). */
export const FEATURE_SINCE = {
  /** Components outside a Form, `init-value`/`error-message` on components, `${screen.…}` bindings. */
  globalBindings: 400,
  /** `update_data` and `open_url` actions, backtick expressions, no blank strings. */
  updateDataAction: 600,
  openUrlAction: 600,
  backtickExpressions: 600,
  noBlankStrings: 600,
  /** From 3.0 the endpoint is configured outside the document. */
  dataChannelUriRemoved: 300,
} as const
