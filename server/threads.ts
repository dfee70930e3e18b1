/**
 * Where each worker thread's entry module is. Resolved from this file because it sits at
 * the root of server/: running from source that is this directory, and in the compiled
 * binary every module's `import.meta.url` is the binary's root, under which scripts/build.ts
 * puts each extra entrypoint at its path relative to server/.
 */
export const CHECKPOINT_WORKER_URL = new URL('./db/checkpoint-worker.ts', import.meta.url).href
export const BACKUP_WORKER_URL = new URL('./backups/backup-worker.ts', import.meta.url).href
