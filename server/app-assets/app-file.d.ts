/**
 * `import path from '.../dist/app/app.js' with { type: 'file' }` gives the file's path (inside
 * the compiled binary, its embedded copy); this tells TypeScript so, built or not.
 */
declare module '*/dist/app/app.js' {
  const path: string
  export default path
}
declare module '*/dist/app/app.css' {
  const path: string
  export default path
}
/** The app's lazily loaded chunks by file name, each the path of its (embedded) file; written by scripts/build-app.ts. */
declare module '*/dist/app/chunks.js' {
  const chunks: Record<string, string>
  export default chunks
}
