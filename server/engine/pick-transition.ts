import type { Transition } from '../flows/conversation-flow-schema.ts'
import { matchesPattern } from './compile-match.ts'
import { type Answer, sameText } from './read-answer.ts'

/**
 * The first transition of `on` the answer satisfies, in the order written, or undefined.
 * `button`/`row` take a pick of that id; `match` tests the text (trimmed, its first 1000
 * characters) against the regex; `equals` compares trimmed and ignoring case; `{}` always.
 */
export function pickTransition(on: Transition[], answer: Answer): Transition | undefined {
  return on.find((transition) => satisfies(transition, answer))
}

function satisfies(transition: Transition, answer: Answer): boolean {
  if ('button' in transition) return answer.reply?.reply_to === 'button' && answer.reply.id === transition.button
  if ('row' in transition) return answer.reply?.reply_to === 'row' && answer.reply.id === transition.row
  if ('match' in transition) return matchesPattern(transition.match, answer.text.trim())
  if ('equals' in transition) return sameText(answer.text) === sameText(transition.equals)
  return true
}
