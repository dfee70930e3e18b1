import type { Transition } from '../flow-language/conversation-flow-schema.ts'
import { matchesPattern } from './compile-match.ts'
import { type Answer, sameText } from './read-answer.ts'

/**
 * The index of the first transition of `on` (among those `eligible`) the answer satisfies,
 * in the order written, or -1.
 * `button`/`row` take a pick of that id; `match` tests the text (trimmed, its first 1000
 * characters) against the regex; `equals` compares trimmed and ignoring case; `{}` always.
 */
export function pickTransition(on: Transition[], answer: Answer, eligible: (transition: Transition) => boolean = () => true): number {
  return on.findIndex((transition) => eligible(transition) && satisfies(transition, answer))
}

function satisfies(transition: Transition, answer: Answer): boolean {
  if ('button' in transition) return answer.reply?.reply_to === 'button' && answer.reply.id === transition.button
  if ('row' in transition) return answer.reply?.reply_to === 'row' && answer.reply.id === transition.row
  if ('match' in transition) return matchesPattern(transition.match, answer.text.trim())
  if ('equals' in transition) return sameText(answer.text) === sameText(transition.equals)
  return true
}
