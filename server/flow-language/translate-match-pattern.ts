/**
 * Rewrites a `match` pattern from JavaScript syntax (as `new RegExp(body)` reads it: no `u`
 * flag, so Annex B applies) into RE2 syntax with the same meaning, for the linear-time
 * matcher (re2js). Where the two disagree, the JavaScript meaning is spelt out explicitly
 * (`\s`, `.`, `[]`, `[^]`, `[[:x:]]`, `\uXXXX`, a `{` that is not a quantifier, ...); what RE2
 * cannot do at all (lookarounds, backreferences), or what JavaScript silently reads as a plain
 * letter though authors mean something else (`\A`, `\z`, `\p{L}`), is reported instead.
 *
 * It expects a body `new RegExp(body)` already accepted, so it need not repeat JavaScript's
 * syntax errors. Capturing groups become non-capturing: a transition only asks whether the
 * text matches, and RE2 runs faster without captures.
 */
export type Translation = { ok: true; source: string } | { ok: false; part: string; why: string }

export function translateMatchPattern(body: string): Translation {
  try {
    return { ok: true, source: new Translator(body).pattern() }
  } catch (error) {
    if (error instanceof Unsupported) return { ok: false, part: error.part, why: error.why }
    throw error
  }
}

class Unsupported extends Error {
  constructor(
    readonly part: string,
    readonly why: string,
  ) {
    super(`${part}: ${why}`)
  }
}

/** JavaScript's `\s`: WhiteSpace and LineTerminator of ECMA-262 (RE2's `\s` is ASCII only). */
const SPACE_RANGES: [number, number][] = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
]
const MAX_CODE_POINT = 0x10ffff
const NOT_SPACE_RANGES = complement(SPACE_RANGES)
/** JavaScript's `.` without the `s` flag: anything but a line terminator (RE2's excludes `\n` only). */
const DOT = `[^${rangesText([
  [0x0a, 0x0a],
  [0x0d, 0x0d],
  [0x2028, 0x2029],
])}]`

/** Escapes whose letter means the same in both engines and is written the same. */
const SHARED_CLASS_ESCAPES = new Set(['d', 'D', 'w', 'W'])
const CONTROL_ESCAPES: Record<string, number> = { t: 0x09, n: 0x0a, v: 0x0b, f: 0x0c, r: 0x0d }
const BRACES = /\{(\d+)(?:(,)(\d*))?\}/y
const HEX2 = /[0-9a-fA-F]{2}/y
const HEX4 = /[0-9a-fA-F]{4}/y

/** One item of a character class: a single character or a class escape such as `\d`. */
type ClassItem = { char: number } | { set: string }

class Translator {
  private at = 0

  constructor(private readonly body: string) {}

  pattern(): string {
    let out = ''
    while (this.at < this.body.length) out += this.term()
    return out
  }

  private term(): string {
    const char = this.body[this.at] as string
    if (char === '\\') return this.escape()
    if (char === '[') return this.charClass()
    if (char === '(') return this.groupOpen()
    if (char === ')' || char === '|' || char === '^' || char === '$') {
      this.at += 1
      return char
    }
    if (char === '.') {
      this.at += 1
      return DOT
    }
    if (char === '*' || char === '+' || char === '?') {
      this.at += 1
      return char + this.lazySuffix()
    }
    if (char === '{') {
      BRACES.lastIndex = this.at
      const braces = BRACES.exec(this.body)
      if (braces) {
        this.at += braces[0].length
        // RE2 reads `{002}` as text; JavaScript as a count.
        const upper = braces[2] === undefined ? '' : `,${braces[3] === '' ? '' : Number(braces[3])}`
        return `{${Number(braces[1])}${upper}}${this.lazySuffix()}`
      }
    }
    return literal(this.codePoint())
  }

  private lazySuffix(): string {
    if (this.body[this.at] !== '?') return ''
    this.at += 1
    return '?'
  }

  /** Reads one character of the pattern, joining a surrogate pair into its code point. */
  private codePoint(): number {
    const point = this.body.codePointAt(this.at) as number
    this.at += point > 0xffff ? 2 : 1
    if (point >= 0xd800 && point <= 0xdfff) throw new Unsupported(String.fromCharCode(point), 'is half of a surrogate pair, which no text can contain')
    return point
  }

  private groupOpen(): string {
    const start = this.at
    this.at += 1
    if (this.body[this.at] !== '?') return '(?:'
    const rest = this.body.slice(this.at)
    if (rest.startsWith('?:')) {
      this.at += 2
      return '(?:'
    }
    const lookaround = /^\?(<?[=!])/.exec(rest)
    if (lookaround) {
      throw new Unsupported(
        this.body.slice(start, this.at + (lookaround[0] as string).length),
        'lookahead and lookbehind are not supported: the matcher runs in linear time and cannot look around',
      )
    }
    const named = /^\?<[^>]*>/.exec(rest)
    if (named) {
      this.at += named[0].length
      return '(?:'
    }
    const modifiers = /^\?([a-z]*)(?:-([a-z]*))?:/.exec(rest) as RegExpExecArray
    this.at += modifiers[0].length
    const [, on = '', off = ''] = modifiers
    if (/[^i]/.test(on + off)) {
      throw new Unsupported(
        this.body.slice(start, this.at),
        'only the i modifier is supported in a group (multiline and dot-all are not); a leading (?i) ignores case everywhere',
      )
    }
    return on ? '(?i:' : '(?-i:'
  }

  private escape(): string {
    const start = this.at
    const kind = this.body[this.at + 1] as string
    this.at += 2
    if (SHARED_CLASS_ESCAPES.has(kind) || kind === 'b' || kind === 'B') return `\\${kind}`
    if (kind === 's') return `[${rangesText(SPACE_RANGES)}]`
    if (kind === 'S') return `[${rangesText(NOT_SPACE_RANGES)}]`
    if (/[1-9]/.test(kind) || kind === 'k' || (kind === '0' && /[0-9]/.test(this.body[this.at] ?? ''))) {
      throw new Unsupported(
        this.body.slice(start, this.at),
        'backreferences (and octal escapes) are not supported: the matcher runs in linear time and cannot refer back; write \\xHH for a character code',
      )
    }
    return literal(this.escapedChar(start, kind, false))
  }

  /**
   * The character an escape other than a class escape stands for, as JavaScript reads it.
   * `inClass`: inside `[...]`, where `\b` is a backspace.
   */
  private escapedChar(start: number, kind: string, inClass: boolean): number {
    if (kind in CONTROL_ESCAPES) return CONTROL_ESCAPES[kind] as number
    if (kind === 'b' && inClass) return 0x08
    if (kind === '0') return 0
    if (kind === 'x') return this.hex(HEX2, 'x')
    if (kind === 'u') return this.unicodeEscape(start)
    if (kind === 'c') {
      const letter = this.body[this.at] ?? ''
      if (!/[a-zA-Z]/.test(letter)) throw new Unsupported(this.body.slice(start, this.at + 1), '\\c must be followed by a letter (a control character)')
      this.at += 1
      return letter.charCodeAt(0) % 32
    }
    if (/[a-zA-Z0-9]/.test(kind)) {
      throw new Unsupported(
        this.body.slice(start, this.at),
        `is not an escape JavaScript knows: it reads it as the plain letter "${kind}", which is rarely what was meant ` +
          '(\\A, \\z and \\p{...} come from other regex dialects); write the letter without the backslash',
      )
    }
    // Any other escaped character stands for itself; it may be half of a surrogate pair.
    this.at -= 1
    return this.codePoint()
  }

  private hex(shape: RegExp, letter: string): number {
    shape.lastIndex = this.at
    const digits = shape.exec(this.body)
    if (!digits) return letter.charCodeAt(0)
    this.at += digits[0].length
    return Number.parseInt(digits[0], 16)
  }

  /** `\uXXXX`, joining an escaped surrogate pair; lone surrogates cannot be matched. */
  private unicodeEscape(start: number): number {
    const unit = this.hex(HEX4, 'u')
    if (unit < 0xd800 || unit > 0xdfff) return unit
    if (unit <= 0xdbff && this.body.startsWith('\\u', this.at)) {
      HEX4.lastIndex = this.at + 2
      const low = HEX4.exec(this.body)
      const lowUnit = low ? Number.parseInt(low[0], 16) : 0
      if (lowUnit >= 0xdc00 && lowUnit <= 0xdfff) {
        this.at += 6
        return 0x10000 + ((unit - 0xd800) << 10) + (lowUnit - 0xdc00)
      }
    }
    throw new Unsupported(this.body.slice(start, this.at), 'is half of a surrogate pair: write the whole character (or both halves)')
  }

  private charClass(): string {
    this.at += 1
    const negated = this.body[this.at] === '^'
    if (negated) this.at += 1
    const items: ClassItem[] = []
    const ranges: [number, number][] = []
    while (this.at < this.body.length && this.body[this.at] !== ']') {
      const from = this.classItem()
      if (this.body[this.at] === '-' && this.at + 1 < this.body.length && this.body[this.at + 1] !== ']') {
        this.at += 1
        const to = this.classItem()
        // Annex B: a range with a class escape at either end is the three items, `-` included.
        if ('char' in from && 'char' in to) ranges.push([from.char, to.char])
        else items.push(from, { char: 0x2d }, to)
      } else {
        items.push(from)
      }
    }
    this.at += 1
    for (const item of items) if ('char' in item) ranges.push([item.char, item.char])
    const sets = items.flatMap((item) => ('set' in item ? [item.set] : []))
    // JavaScript's `[]` matches nothing and `[^]` anything; RE2 reads both as unclosed.
    if (ranges.length === 0 && sets.length === 0) return negated ? `[${rangesText([[0, MAX_CODE_POINT]])}]` : `[^${rangesText([[0, MAX_CODE_POINT]])}]`
    return `[${negated ? '^' : ''}${rangesText(ranges)}${sets.join('')}]`
  }

  private classItem(): ClassItem {
    if (this.body[this.at] !== '\\') return { char: this.codePoint() }
    const start = this.at
    const kind = this.body[this.at + 1] as string
    this.at += 2
    if (SHARED_CLASS_ESCAPES.has(kind)) return { set: `\\${kind}` }
    if (kind === 's') return { set: rangesText(SPACE_RANGES) }
    if (kind === 'S') return { set: rangesText(NOT_SPACE_RANGES) }
    if (kind === '-') return { char: 0x2d }
    if (/[1-9]/.test(kind) || (kind === '0' && /[0-9]/.test(this.body[this.at] ?? ''))) {
      throw new Unsupported(this.body.slice(start, this.at), 'octal escapes are not supported; write \\xHH for a character code')
    }
    return { char: this.escapedChar(start, kind, true) }
  }
}

/** One character outside a class, written so RE2 cannot read it as syntax. */
function literal(point: number): string {
  if (/[a-zA-Z0-9]/.test(String.fromCodePoint(point)) || point > 0x7f) return String.fromCodePoint(point)
  return hexEscape(point)
}

function hexEscape(point: number): string {
  return `\\x{${point.toString(16)}}`
}

function rangesText(ranges: [number, number][]): string {
  return ranges.map(([from, to]) => (from === to ? hexEscape(from) : `${hexEscape(from)}-${hexEscape(to)}`)).join('')
}

function complement(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = []
  let next = 0
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1])
    next = to + 1
  }
  if (next <= MAX_CODE_POINT) out.push([next, MAX_CODE_POINT])
  return out
}
