import type { Message } from '../conversations/model.ts'
import type { ChatMessage } from '../llm/wire-format.ts'

/**
 * The conversation as the model reads it: the visitor's messages as `user`, the bot's and the
 * team's as `assistant` (a person's marked as such, so the model does not take their promises
 * for its own), pickers and media as readable text. The visitor's messages the run answers
 * (stored since `answeringSince`, when its first pending run was recorded) come last, after
 * what the bot said meanwhile (an earlier run's answer to the message before), and are always
 * given; before them, older messages up to `history` in all.
 */
export function modelHistory(recent: Message[], history: number, answeringSince: string): ChatMessage[] {
  const spoken = recent.filter((message) => message.role !== 'system')
  const isQuestion = (message: Message) => message.role === 'visitor' && message.created_at >= answeringSince
  const questions = spoken.filter(isQuestion)
  const context = spoken.filter((message) => !isQuestion(message))
  const kept = [...context.slice(Math.max(0, context.length - Math.max(0, history - questions.length))), ...questions]
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
