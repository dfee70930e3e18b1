/** A catalogue text with its `{name}` places filled in (an unknown place stays as written). */
export function fillText(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (place, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : place))
}
