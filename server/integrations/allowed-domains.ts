import { isIPv4, isIPv6 } from 'node:net'
import type { FieldError } from '../http/api-error.ts'

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/

/**
 * Reads `allowed_domains` into the form the socket compares with an Origin's host: lowercase,
 * international names as punycode, IPv6 in brackets, duplicates dropped. Each bad entry gets
 * its own error at `/allowed_domains/N`.
 */
export function normaliseAllowedDomains(entries: readonly string[], errors: FieldError[]): string[] {
  const domains: string[] = []
  entries.forEach((entry, index) => {
    const result = normaliseOne(entry)
    if ('problem' in result) errors.push({ path: `/allowed_domains/${index}`, message: result.problem })
    else if (!domains.includes(result.domain)) domains.push(result.domain)
  })
  return domains
}

function normaliseOne(entry: string): { domain: string } | { problem: string } {
  const text = entry.toLowerCase()
  if (/[\s\u0000-\u001f\u007f]/.test(text)) return { problem: 'must not contain spaces or control characters' }
  if (text.includes('://')) {
    return { problem: `must be a host name without a scheme: write ${example(text)}, not ${entry}` }
  }
  if (/[/?#@\\]/.test(text)) return { problem: 'must be a host name without a path, query, fragment or user name' }
  if (text === '*' || text === '*.') {
    return { problem: 'a bare * is not allowed; leave allowed_domains empty to allow every domain' }
  }
  const wildcard = text.startsWith('*.')
  const rest = wildcard ? text.slice(2) : text
  if (rest.includes('*')) return { problem: 'may use * only as a leading *. (as in *.example.com)' }

  const parts = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(rest)
  if (!parts) return { problem: 'has a malformed port, or an IPv6 address without [brackets]' }
  const [, hostText = '', portText] = parts
  if (portText !== undefined && (Number(portText) < 1 || Number(portText) > 65535)) {
    return { problem: 'has a port outside 1 to 65535' }
  }
  const port = portText === undefined ? '' : `:${Number(portText)}`

  const host = normaliseHost(hostText)
  if ('problem' in host) return host
  if (wildcard && host.ip) return { problem: 'may not combine *. with an IP address' }
  if (wildcard && host.name.split('.').length < 2) {
    return { problem: 'needs a domain of at least two labels after *. (as in *.example.com)' }
  }
  return { domain: `${wildcard ? '*.' : ''}${host.name}${port}` }
}

function normaliseHost(text: string): { name: string; ip: boolean } | { problem: string } {
  if (text.startsWith('[')) {
    const inner = text.slice(1, -1)
    if (!isIPv6(inner)) return { problem: 'is not a valid IPv6 address' }
    return { name: new URL(`http://[${inner}]`).hostname, ip: true }
  }
  if (/^[\d.]+$/.test(text)) return isIPv4(text) ? { name: text, ip: true } : { problem: 'is not a valid IPv4 address' }
  let name: string
  try {
    name = new URL(`http://${text}`).hostname
  } catch {
    return { problem: 'is not a valid host name' }
  }
  // The URL parser reads spellings such as 0x7f.1 as IPv4; an Origin never carries them.
  if (isIPv4(name)) return { problem: 'is not a valid host name' }
  const labels = name.replace(/\.$/, '').split('.')
  if (name.length > 253 || !labels.every((label) => LABEL.test(label))) return { problem: 'is not a valid host name' }
  return { name: labels.join('.'), ip: false }
}

function example(text: string): string {
  const afterScheme = text.slice(text.indexOf('://') + 3)
  return afterScheme.split(/[/?#]/, 1)[0] || 'example.com'
}
