import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../../support/free-port.ts'

const deploy = join(import.meta.dir, '../../../deploy')

export interface RunningProxy {
  /** https://127.0.0.1:PORT: where clients reach Parley through the proxy. */
  origin: string
  /** The certificate authority the proxy's certificate is checked against. */
  ca: string
  stop(): Promise<void>
}

export interface ProxyKind {
  name: string
  /** Starts the proxy on free ports of 127.0.0.1 in front of Parley at `parleyPort`, from the shipped file. */
  start(parleyPort: number, httpsPort: number): Promise<RunningProxy>
}

/** Replaces each `from` of the shipped file, which must be there: a template that no longer matches the file fails loudly. */
function templated(file: string, replacements: [string, string][]): string {
  let text = readFileSync(join(deploy, file), 'utf8')
  for (const [from, to] of replacements) {
    if (!text.includes(from)) throw new Error(`deploy/${file} no longer contains ${JSON.stringify(from)}: update the test's template`)
    text = text.split(from).join(to)
  }
  return text
}

async function waitFor(ready: () => boolean | Promise<boolean>, what: string, log: () => string): Promise<void> {
  for (let waited = 0; waited < 20_000; waited += 50) {
    if (await ready()) return
    await Bun.sleep(50)
  }
  throw new Error(`${what} did not start: ${log()}`)
}

const answers = async (origin: string, ca: string) => {
  try {
    await (await fetch(`${origin}/healthz`, { tls: { ca } })).arrayBuffer()
    return true
  } catch {
    return false
  }
}

/**
 * Debian's Caddy running deploy/Caddyfile. Only the site's address and Parley's port are
 * changed; a global options block of this test's own keeps this Caddy to itself (no admin
 * endpoint on :2019, its HTTP port free, its local CA not put in the system's trust store).
 * Caddy gives an IP address a certificate from that local CA, as it gives a domain one from
 * Let's Encrypt.
 */
export const caddy: ProxyKind = {
  name: 'Caddy',
  async start(parleyPort, httpsPort) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-caddy-'))
    const site = templated('Caddyfile', [
      ['chat.example.com {', `https://127.0.0.1:${httpsPort} {`],
      ['127.0.0.1:3000', `127.0.0.1:${parleyPort}`],
    ])
    const global = `{\n\tadmin off\n\tskip_install_trust\n\thttp_port ${freePort()}\n\thttps_port ${httpsPort}\n}\n\n`
    writeFileSync(join(dir, 'Caddyfile'), global + site)
    let log = ''
    const proc = Bun.spawn(['caddy', 'run', '--adapter', 'caddyfile', '--config', join(dir, 'Caddyfile')], {
      env: { ...process.env, HOME: dir, XDG_DATA_HOME: join(dir, 'data'), XDG_CONFIG_HOME: join(dir, 'config') },
      stdout: 'ignore',
      stderr: 'pipe',
    })
    void new Response(proc.stderr).text().then((text) => (log += text))
    const origin = `https://127.0.0.1:${httpsPort}`
    const root = join(dir, 'data/caddy/pki/authorities/local/root.crt')
    await waitFor(() => existsSync(root) && answers(origin, readFileSync(root, 'utf8')), 'Caddy', () => log)
    return {
      origin,
      ca: readFileSync(root, 'utf8'),
      async stop() {
        proc.kill('SIGTERM')
        await proc.exited
        rmSync(dir, { recursive: true, force: true })
      },
    }
  },
}

/**
 * Debian's nginx running deploy/nginx.conf, included in an http block as Debian's nginx.conf
 * includes sites-enabled/. Only the listening addresses and ports, the certificate's paths (a
 * certificate made here for 127.0.0.1) and Parley's port are changed.
 */
export const nginx: ProxyKind = {
  name: 'nginx',
  async start(parleyPort, httpsPort) {
    const dir = mkdtempSync(join(tmpdir(), 'parley-nginx-'))
    // The workers run as nobody and write their temporary files here.
    chmodSync(dir, 0o777)
    const made = Bun.spawnSync(
      ['openssl', 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdout: 'ignore', stderr: 'pipe' },
    )
    if (made.exitCode !== 0) throw new Error(`openssl: ${made.stderr}`)
    const httpPort = freePort()
    const site = templated('nginx.conf', [
      ['listen 80;', `listen 127.0.0.1:${httpPort};`],
      ['listen [::]:80;', `listen [::1]:${httpPort};`],
      ['listen 443 ssl http2;', `listen 127.0.0.1:${httpsPort} ssl http2;`],
      ['listen [::]:443 ssl http2;', `listen [::1]:${httpsPort} ssl http2;`],
      ['/etc/letsencrypt/live/chat.example.com/fullchain.pem', join(dir, 'cert.pem')],
      ['/etc/letsencrypt/live/chat.example.com/privkey.pem', join(dir, 'key.pem')],
      ['server 127.0.0.1:3000;', `server 127.0.0.1:${parleyPort};`],
    ])
    writeFileSync(join(dir, 'parley.conf'), site)
    for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) {
      mkdirSync(join(dir, temp))
      chmodSync(join(dir, temp), 0o777)
    }
    const temps = ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((temp) => `  ${temp === 'body' ? 'client_body' : temp}_temp_path ${join(dir, temp)};`).join('\n')
    writeFileSync(
      join(dir, 'nginx.conf'),
      `worker_processes 1;\npid ${join(dir, 'nginx.pid')};\nerror_log ${join(dir, 'error.log')} warn;\nevents { worker_connections 512; }\nhttp {\n  access_log off;\n${temps}\n  include ${join(dir, 'parley.conf')};\n}\n`,
    )
    const proc = Bun.spawn(['nginx', '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdout: 'ignore', stderr: 'pipe' })
    const log = () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '')
    const origin = `https://127.0.0.1:${httpsPort}`
    const ca = readFileSync(join(dir, 'cert.pem'), 'utf8')
    await waitFor(() => answers(origin, ca), 'nginx', log)
    return {
      origin,
      ca,
      async stop() {
        proc.kill('SIGQUIT')
        await proc.exited
        rmSync(dir, { recursive: true, force: true })
      },
    }
  },
}
