import { delimiter, dirname, isAbsolute, relative, sep } from 'node:path'

interface Invocation {
  /** Bun.main: the entry module; inside a compiled binary it lives under /$bunfs/. */
  main: string
  /** process.execPath: the compiled binary itself, or the bun that runs the sources. */
  execPath: string
  cwd: string
  path: string | undefined
}

const current = (): Invocation => ({ main: Bun.main, execPath: process.execPath, cwd: process.cwd(), path: process.env.PATH })

/**
 * How to run another Parley command the way this one was started, for the texts that
 * suggest one (the first start's, `users list` on an empty install): the compiled binary by
 * the name that finds it from here (`parley` on the PATH, `./dist/parley` under the current
 * folder, else its full path); from a checkout (`npm start`, `bun server/main.ts`), the
 * package's npm script, `npm run parley --`, which works there after `npm install`.
 */
export function parleyCommand(invocation: Invocation = current()): string {
  const compiled = invocation.main.startsWith('/$bunfs/') || /^[A-Z]:\\~BUN\\/.test(invocation.main)
  if (!compiled) return 'npm run parley --'
  const binary = invocation.execPath
  const onPath = (invocation.path ?? '').split(delimiter).some((folder) => folder && isAbsolute(folder) && folder === dirname(binary))
  if (onPath) return binary.slice(dirname(binary).length + 1)
  const inside = relative(invocation.cwd, binary)
  if (inside && !inside.startsWith('..') && !isAbsolute(inside)) return `.${sep}${inside}`
  return binary
}
