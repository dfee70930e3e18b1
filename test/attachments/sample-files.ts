/**
 * Small real files of each kind, for the attachment tests: each opens in a browser as what it
 * is, so the Chromium tests can see a picture drawn and a PDF offered.
 */
const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))

export const SAMPLE = {
  /** A 1x1 red PNG. */
  png: fromBase64('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC'),
  /** A 1x1 GIF. */
  gif: fromBase64('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7'),
  /** The first bytes of a JPEG (its signature and a JFIF header). */
  jpeg: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0xff, 0xd9]),
  /** A RIFF/WEBP header. */
  webp: new Uint8Array([...new TextEncoder().encode('RIFF'), 0x1a, 0, 0, 0, ...new TextEncoder().encode('WEBPVP8L'), 0x0d, 0, 0, 0, 0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0x00]),
  /** A one-page PDF that says "Invoice". */
  pdf: new TextEncoder().encode(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n4 0 obj<</Length 44>>stream\nBT /F1 24 Tf 20 40 Td (Invoice) Tj ET\nendstream endobj\n5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  ),
  /** An SVG that would run script if it were served as SVG from Parley's origin. */
  svg: new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.domain)"><circle r="4"/></svg>'),
  /** An HTML page with a script. */
  html: new TextEncoder().encode('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'),
} as const
