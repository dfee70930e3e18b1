/** The sources of one directive of a Content-Security-Policy header, or undefined when it has none. */
export function cspDirective(policy: string | null, name: string): string[] | undefined {
  return (policy ?? '')
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([first]) => first === name)
    ?.slice(1)
}
