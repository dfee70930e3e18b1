/**
 * Debian's Chromium, as the browser tests, the widget benchmark and the screenshot script
 * launch it (through playwright-core; no browser is downloaded by npm). `*.test` host names
 * resolve to 127.0.0.1, so a page can be served as http://shop.test:PORT/ and have that origin.
 */
export const CHROMIUM_PATH = '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--host-resolver-rules=MAP *.test 127.0.0.1',
]
