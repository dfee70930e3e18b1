import type { Message } from '../conversations/model.ts'
import type { ChatMessage } from '../llm/wire-format.ts'

/**
 * The conversation as the model reads it, oldest first: the visitor's messages as `user`, the
 * bot's and the team's as `assistant` (a person's marked as such, so the model does not take
 * their promises for its own), pickers and media as readable text. The last `history`
 * messages, but never fewer than the visitor's messages the run answers (those after the last
 * message of the bot or a person): with `history: 0` the model still reads the question.
 */
export function modelHistory(recent: Message[], history: number): ChatMessage[] {
  const spoken = recent.filter((message) => message.role !== 'system')
  let unanswered = 0
  while (unanswered < spoken.length && spoken[spoken.length - 1 - unanswered]?.role === 'visitor') unanswered++
  const kept = spoken.slice(spoken.length - Math.max(history, unanswered))
  return kept.map((message): ChatMessage => {
    const text = readable(message)
    if (message.role === 'visitor') return { role: 'user', content: text }
    if (message.role === 'agent') return { role: 'assistant', content: `[a person of the team${message.author ? `, ${message.author},` : ''} wrote] ${text}` }
    return { role: 'assistant', content: text }
  })
}

function readable(message: Message): string {
  const content = message.content
  switch (content.kind) {
    case 'text':
      return content.text
    case 'reply':
      return content.title
    case 'buttons':
      return `${content.text}\n[options: ${content.buttons.map((button) => button.title).join(' | ')}]`
    case 'list':
      return `${content.text}\n[options: ${content.sections.flatMap((section) => section.rows.map((row) => row.title)).join(' | ')}]`
    case 'media':
      return `[${content.media.type}]${content.media.caption ? ` ${content.media.caption}` : ''}`
    case 'meta_flow':
      return `[form] ${content.cta}`
    default:
      return JSON.stringify(content)
  }
}
