/**
 * Every text the widget itself shows, in English: the catalogue's keys and the fallback for
 * any key another language lacks. Carried inside widget.js; the other languages are JSON files
 * beside this one, fetched by the widget once its configuration says which (served at
 * WIDGET_TEXTS_PATH). `{name}` marks a value filled in at run time. Imports nothing.
 */
export const EN_TEXTS = {
  open_chat_unread: '{bubble}, unread messages: {count}',
  close_chat: 'Close chat',
  dismiss_preview: 'Dismiss message preview',
  agent: 'Agent',
  you: 'You',
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
  file: 'File',
  messages: 'Messages',
  show_earlier: 'Show earlier messages',
  seen: 'Seen',
  is_typing: '{name} is typing',
  agent_is_typing: 'An agent is typing',
  is_writing: '{name} is writing…',
  new_message: 'New message ↓',
  conversation_ended: 'Conversation ended',
  not_delivered: 'Not delivered: {reason}',
  remove: 'Remove',
  unavailable: 'Chat is unavailable right now.',
  offline_reconnecting: 'You are offline. Reconnecting…',
  attach_file: 'Attach a file',
  attach_hint: 'Attach a picture or PDF',
  message_label: 'Message',
  placeholder: 'Write a message…',
  send: 'Send',
  choose_answer: 'Choose an answer',
  form_in_app: '(this form opens in the messaging app)',
  attachment_unshown: '(an attachment that cannot be shown)',
  download_file: 'Download file',
  sending_file: 'Sending {name}',
  rate_conversation: 'Rate this conversation',
  rating_question: 'How was this conversation?',
  good: 'Good',
  bad: 'Bad',
  stars_of_five: '{score} of 5',
  thanks: 'Thanks for your feedback.',
  thanks_stars: 'Thanks for your feedback ({score} of 5).',
  comment_label: 'Comment (optional)',
  comment_placeholder: 'Add a comment (optional)',
  send_rating: 'Send rating',
  offline: 'You are offline.',
  only_types: 'Only PNG, JPEG, GIF or WebP images and PDF files can be sent.',
  file_too_large: 'The file is {size}; files may be at most {max}.',
  file_not_sent: 'The file could not be sent: check your connection.',
  server_answered: 'The server answered {status}.',
  rating_off: 'This chat does not take ratings.',
  rating_unknown: 'This conversation cannot be rated.',
  rating_not_closed: 'The conversation has not ended yet.',
  rating_given: 'This conversation was already rated.',
  rating_invalid: 'That rating cannot be sent.',
  just_now: 'Just now',
} as const

export type TextKey = keyof typeof EN_TEXTS
/** One language's texts: every key, each a string (widget-texts/*.json). */
export type WidgetTexts = Record<TextKey, string>
