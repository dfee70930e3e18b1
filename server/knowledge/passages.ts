/** A piece of a source small enough to be read as an answer's context and ranked on its own. */
export interface Passage {
  /** The headings above it, outermost first, joined by " › "; empty before the first heading. */
  heading: string
  /** The slug of its nearest heading (as GitHub makes them: `#getting-started`), empty before the first heading. */
  anchor: string
  text: string
}

/** A passage grows to about this many characters (a few paragraphs), then a new one starts. */
export const PASSAGE_TARGET_CHARS = 1_000
/** Each passage after the first of a section starts with up to this much of the one before, so a sentence cut by the split is found whole in one of them. */
export const PASSAGE_OVERLAP_CHARS = 200

const HEADING = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/
const FENCE = /^[ \t]{0,3}(`{3,}|~{3,})/

interface Section {
  headings: string[]
  anchor: string
  blocks: string[]
}

/**
 * Splits Markdown or plain text into passages: a new section at each ATX heading (outside
 * code fences), paragraphs (blank-line separated; a fenced block is one) packed up to
 * PASSAGE_TARGET_CHARS, a longer paragraph cut at a sentence end or a space, and an overlap
 * of PASSAGE_OVERLAP_CHARS between consecutive passages of a section. Pure: same text, same passages.
 */
export function splitPassages(text: string): Passage[] {
  return sectionsOf(text.replace(/\r\n?/g, '\n')).flatMap((section) => {
    const heading = section.headings.join(' › ')
    return packed(section.blocks).map((body) => ({ heading, anchor: section.anchor, text: body }))
  })
}

function sectionsOf(text: string): Section[] {
  const sections: Section[] = []
  const stack: { level: number; text: string }[] = []
  const slugs = new Map<string, number>()
  let section: Section = { headings: [], anchor: '', blocks: [] }
  let block: string[] = []
  let fence: string | null = null
  const endBlock = () => {
    const joined = block.join('\n').trim()
    if (joined) section.blocks.push(joined)
    block = []
  }
  for (const line of text.split('\n')) {
    const fenceMark = FENCE.exec(line)?.[1]
    if (fence !== null) {
      block.push(line)
      if (fenceMark && fenceMark[0] === fence[0] && fenceMark.length >= fence.length && line.trim() === fenceMark) {
        fence = null
        endBlock()
      }
      continue
    }
    if (fenceMark) {
      endBlock()
      fence = fenceMark
      block.push(line)
      continue
    }
    const heading = HEADING.exec(line)
    if (heading) {
      endBlock()
      if (section.blocks.length > 0) sections.push(section)
      const level = (heading[1] as string).length
      while (stack.length > 0 && (stack.at(-1)?.level ?? 0) >= level) stack.pop()
      const title = plainHeading(heading[2] as string)
      stack.push({ level, text: title })
      section = { headings: stack.map((entry) => entry.text), anchor: uniqueSlug(title, slugs), blocks: [] }
      continue
    }
    if (line.trim() === '') endBlock()
    else block.push(line)
  }
  endBlock()
  if (section.blocks.length > 0) sections.push(section)
  return sections
}

/** A heading's words without Markdown's emphasis, code marks and link targets. */
function plainHeading(text: string): string {
  return text.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[*_`]/g, '').trim()
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
function uniqueSlug(title: string, seen: Map<string, number>): string {
  const base = title.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').trim().replace(/\s/g, '-')
  const count = seen.get(base) ?? 0
  seen.set(base, count + 1)
  return count === 0 ? base : `${base}-${count}`
}

function packed(blocks: string[]): string[] {
  const pieces = blocks.flatMap((block) => cut(block, PASSAGE_TARGET_CHARS))
  const passages: string[] = []
  let current: string[] = []
  let length = 0
  for (const piece of pieces) {
    if (current.length > 0 && length + piece.length + 2 > PASSAGE_TARGET_CHARS) {
      const done = current.join('\n\n')
      passages.push(done)
      const overlap = tail(done, PASSAGE_OVERLAP_CHARS)
      current = overlap ? [overlap] : []
      length = overlap.length
    }
    current.push(piece)
    length += piece.length + 2
  }
  if (current.length > 0) passages.push(current.join('\n\n'))
  return passages
}

/** A block cut into pieces of at most `max` characters: at a sentence end, else a space, else anywhere. */
function cut(block: string, max: number): string[] {
  const pieces: string[] = []
  let rest = block
  while (rest.length > max) {
    const window = rest.slice(0, max)
    const sentenceEnd = lastMatchEnd(window, /[.!?。！？](?=\s)/g)
    const space = window.lastIndexOf(' ')
    const at = sentenceEnd > max / 2 ? sentenceEnd : space > max / 2 ? space : max
    pieces.push(rest.slice(0, at).trim())
    rest = rest.slice(at).trimStart()
  }
  if (rest) pieces.push(rest)
  return pieces
}

function lastMatchEnd(text: string, pattern: RegExp): number {
  let end = -1
  for (const match of text.matchAll(pattern)) end = (match.index ?? 0) + match[0].length
  return end
}

/** The end of a passage, at most `max` characters, starting at a sentence or a word. */
function tail(text: string, max: number): string {
  if (text.length <= max) return text
  const window = text.slice(-max)
  const sentence = /[.!?。！？]\s+/.exec(window)
  if (sentence && sentence.index + sentence[0].length < window.length) return window.slice(sentence.index + sentence[0].length).trim()
  const space = window.search(/\s/)
  return space >= 0 ? window.slice(space).trim() : window
}
