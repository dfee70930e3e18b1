import type { Message } from './model.ts'

const texts = new WeakMap<Message, string>()

/**
 * A stored message's JSON text, made once: a turn's message goes out as the widget's frame
 * and as the desk feed's entry, each of which used to serialise it again. Messages are not
 * changed once made, so the text stays true; it goes with the object.
 */
export function messageJson(message: Message): string {
  let text = texts.get(message)
  if (text === undefined) {
    text = JSON.stringify(message)
    texts.set(message, text)
  }
  return text
}
