/**
 * The entry of widget-chat.js: what only an open chat needs (the window, the message log, the
 * composer and its uploads). widget.js loads it when the chat first opens, so the script every
 * page loads stays small; Solid itself comes from widget.js (scripts/build-widget.ts).
 */
export { ChatWindow } from './components/ChatWindow.tsx'
