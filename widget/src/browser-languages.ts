/** The visitor's languages, most wanted first, as the browser gives them. */
export function browserLanguages(): string[] {
  const list = navigator.languages?.length ? navigator.languages : [navigator.language]
  return list.filter((tag): tag is string => typeof tag === 'string' && tag !== '')
}
