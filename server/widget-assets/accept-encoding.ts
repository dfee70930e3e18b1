export type ContentCoding = 'br' | 'gzip' | 'identity'

/**
 * The best coding the client accepts (RFC 9110 §12.5.3): brotli, then gzip, then none.
 * `q=0` refuses a coding; `*` stands for any coding not named.
 */
export function chooseEncoding(header: string | null | undefined): ContentCoding {
  if (!header) return 'identity'
  const weights = new Map<string, number>()
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    const q = params.map((param) => /^\s*q\s*=\s*([\d.]+)\s*$/.exec(param)).find(Boolean)
    weights.set(name.trim(), q ? Number(q[1]) : 1)
  }
  const weight = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0
  const best = (['br', 'gzip'] as const).filter((coding) => weight(coding) > 0).sort((a, b) => weight(b) - weight(a))[0]
  return best ?? 'identity'
}
