/** A content block as MCP returns it: text, image, audio, resource links and embedded resources. */
export type ContentBlock = { type: string; text?: string; data?: string; [key: string]: unknown }

export interface CutOutput {
  content: ContentBlock[]
  structured_content: unknown
  truncated: boolean
}

const marker = (cut: number) => `\n[… ${cut} characters of the tool's output cut by Parley …]\n`

/**
 * Keeps a tool's output within `limit` characters in all: text is cut in its middle (its start
 * and end are usually what matters), with a marker saying how much went; binary blocks and
 * structured content that do not fit are replaced by a note.
 */
export function cutOutput(content: ContentBlock[], structured: unknown, limit: number): CutOutput {
  let budget = limit
  let truncated = false
  const kept: ContentBlock[] = []
  for (const block of content) {
    if (typeof block.text === 'string' && block.type === 'text') {
      const text = block.text
      if (text.length <= budget) {
        budget -= text.length
        kept.push(block)
        continue
      }
      truncated = true
      const room = Math.max(0, budget)
      const head = Math.ceil((room * 2) / 3)
      const tail = room - head
      kept.push({ ...block, text: text.slice(0, head) + marker(text.length - room) + (tail > 0 ? text.slice(-tail) : '') })
      budget = 0
      continue
    }
    const size = JSON.stringify(block).length
    if (size <= budget) {
      budget -= size
      kept.push(block)
    } else {
      truncated = true
      kept.push({ type: 'text', text: `[a ${block.type} block of ${size} characters was left out by Parley: the output is over its size limit]` })
    }
  }
  let structuredKept = structured ?? null
  if (structuredKept !== null && JSON.stringify(structuredKept).length > budget) {
    truncated = true
    structuredKept = null
    kept.push({ type: 'text', text: "[the tool's structured content was left out by Parley: the output is over its size limit]" })
  }
  return { content: kept, structured_content: structuredKept, truncated }
}
