import { connect } from 'node:net'

export interface RawAnswer {
  status: number
  headers: Record<string, string>
  body: string
}

/** Sends a request head as bytes (fetch refuses some of these) and reads the whole answer. */
export function rawRequest(url: string, head: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}Connection: close\r\n\r\n`))
    let text = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk) => (text += chunk))
    socket.on('error', reject)
    socket.on('close', () => {
      const [top = '', ...rest] = text.split('\r\n\r\n')
      const [statusLine = '', ...lines] = top.split('\r\n')
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]))
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') })
    })
  })
}
