/** Vite turns `*.css?inline` imports into the (minified) stylesheet text. */
declare module '*.css?inline' {
  const css: string
  export default css
}

/** Made by scripts/build-widget.ts: the Solid exports widget-chat.js uses, by module. */
declare module 'virtual:parley-chat-runtime' {
  export const chatRuntime: Record<string, Record<string, unknown>>
}
