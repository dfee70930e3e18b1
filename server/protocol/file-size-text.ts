/**
 * File sizes as people read them, imported by the server (its refusals) and by the widget at
 * run time (its own refusals and the size under a file being sent), so both say the same: this
 * file imports nothing.
 */

const KIB = 1024
const MIB = 1024 * 1024

/**
 * 512 bytes, 3.5 KiB, 10 MiB: in the binary units the limits are set in
 * (PARLEY_ATTACHMENT_MAX_BYTES, 10 MiB unless set), to one decimal. A file's size rounds up, so
 * it never reads smaller than it is; a limit rounds down, so it never promises more than it
 * takes: a file just over a limit always reads larger than the limit.
 */
export function fileSizeText(bytes: number, rounding: 'up' | 'down' = 'up'): string {
  if (bytes < KIB) return `${bytes} ${bytes === 1 ? 'byte' : 'bytes'}`
  const round = rounding === 'up' ? Math.ceil : Math.floor
  let unit = bytes < MIB ? 'KiB' : 'MiB'
  let tenths = round((bytes * 10) / (unit === 'KiB' ? KIB : MIB))
  // 1,048,570 bytes rounded up reads 1 MiB, not 1024 KiB.
  if (unit === 'KiB' && tenths >= 10 * 1024) [unit, tenths] = ['MiB', round((bytes * 10) / MIB)]
  return `${tenths % 10 === 0 ? tenths / 10 : (tenths / 10).toFixed(1)} ${unit}`
}

/** The refusal of a file over the limit, in the server's 413 detail and the widget's own check alike (its size when known). */
export function fileTooLargeText(maxBytes: number, size?: number): string {
  const what = size === undefined ? 'the file is too large' : `the file is ${fileSizeText(size)}`
  return `${what}; files may be at most ${fileSizeText(maxBytes, 'down')}`
}
