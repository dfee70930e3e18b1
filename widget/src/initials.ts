/** Up to two letters from a name, for an agent without a picture: "Maya Lin" is "ML", "sam" is "S". */
export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => Array.from(word)[0]!.toUpperCase())
    .join('')
}
