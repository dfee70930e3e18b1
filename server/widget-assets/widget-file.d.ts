/**
 * `import path from '.../dist/widget/widget.js' with { type: 'file' }` gives the file's path
 * (inside the compiled binary, its embedded copy); this tells TypeScript so, whether or not
 * the widget has been built yet.
 */
declare module '*/dist/widget/widget.js' {
  const path: string
  export default path
}

declare module '*/dist/widget/widget-chat.css' {
  const path: string
  export default path
}

declare module '*/dist/widget/widget-chat.js' {
  const path: string
  export default path
}

declare module '*/dist/widget/widget-live.js' {
  const path: string
  export default path
}
