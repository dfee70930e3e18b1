/**
 * The expression language of If conditions and (from 6.0) backtick expressions: bindings,
 * 'string' and number literals, true/false, parentheses, and the operators
 * ! && || == != < <= > >= + - * / %. A backtick expression may also place terms side by side
 * to join them as text (`'Hello ' ${form.name}`).
 */
import type { DataType } from './json.ts'
import { type ParsedRef, parseRef } from './references.ts'

type Token =
  | { kind: 'ref'; ref: ParsedRef | null; text: string }
  | { kind: 'literal'; type: 'string' | 'number' | 'boolean'; text: string }
  | { kind: 'op'; text: string }
  | { kind: 'open' }
  | { kind: 'close' }

export type Expr =
  | { kind: 'ref'; ref: ParsedRef | null; text: string }
  | { kind: 'literal'; type: 'string' | 'number' | 'boolean'; text: string }
  | { kind: 'unary'; op: string; arg: Expr }
  | { kind: 'binary'; op: string; left: Expr; right: Expr }
  | { kind: 'concat'; parts: Expr[] }

export class ExpressionError extends Error {}

const OPERATORS = ['==', '!=', '<=', '>=', '&&', '||', '<', '>', '!', '+', '-', '*', '/', '%']
// Sticky, so that matching at a position never copies the rest of a long expression.
const NUMBER = /\d+(\.\d+)?/y
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y

function matchAt(pattern: RegExp, source: string, at: number): string {
  pattern.lastIndex = at
  return (pattern.exec(source) as RegExpExecArray)[0]
}

/** Expressions are short in practice; these bounds keep parsing a hostile one cheap and shallow. */
export const MAX_TOKENS = 500
const MAX_PARENTHESES = 32

export function tokenize(source: string): Token[] {
  const tokens: Token[] = []
  let i = 0
  let open = 0
  while (i < source.length) {
    if (tokens.length > MAX_TOKENS) throw new ExpressionError(`The expression has more than ${MAX_TOKENS} parts; split it or compute the value at your endpoint.`)
    const char = source[i] as string
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') {
      i++
    } else if (char === '$' && source[i + 1] === '{') {
      const end = source.indexOf('}', i)
      if (end < 0) throw new ExpressionError(`The binding starting at "${source.slice(i, i + 20)}" has no closing "}".`)
      const text = source.slice(i, end + 1)
      tokens.push({ kind: 'ref', ref: parseRef(source.slice(i + 2, end), text), text })
      i = end + 1
    } else if (char === "'") {
      let end = i + 1
      while (end < source.length && source[end] !== "'") end += source[end] === '\\' ? 2 : 1
      if (end >= source.length) throw new ExpressionError('A string literal is missing its closing quote.')
      tokens.push({ kind: 'literal', type: 'string', text: source.slice(i, end + 1) })
      i = end + 1
    } else if (char >= '0' && char <= '9') {
      const text = matchAt(NUMBER, source, i)
      tokens.push({ kind: 'literal', type: 'number', text })
      i += text.length
    } else if (char === '(') {
      if (++open > MAX_PARENTHESES) throw new ExpressionError(`Parentheses nest more than ${MAX_PARENTHESES} deep.`)
      tokens.push({ kind: 'open' })
      i++
    } else if (char === ')') {
      open--
      tokens.push({ kind: 'close' })
      i++
    } else if (/[A-Za-z_]/.test(char)) {
      const word = matchAt(WORD, source, i)
      if (word !== 'true' && word !== 'false') {
        throw new ExpressionError(`Unexpected word "${word}": write text as a 'quoted' literal and data as \${data.${word}}.`)
      }
      tokens.push({ kind: 'literal', type: 'boolean', text: word })
      i += word.length
    } else {
      const op = OPERATORS.find((candidate) => source.startsWith(candidate, i))
      if (!op) throw new ExpressionError(`Unexpected character "${char}".`)
      tokens.push({ kind: 'op', text: op })
      i += op.length
    }
  }
  return tokens
}

const BINARY_LEVELS: readonly (readonly string[])[] = [['||'], ['&&'], ['==', '!='], ['<', '<=', '>', '>='], ['+', '-'], ['*', '/', '%']]

class Parser {
  private position = 0
  constructor(private readonly tokens: Token[]) {}

  atEnd(): boolean {
    return this.position >= this.tokens.length
  }

  peek(): Token | undefined {
    return this.tokens[this.position]
  }

  expression(level = 0): Expr {
    if (level === BINARY_LEVELS.length) return this.unary()
    let left = this.expression(level + 1)
    for (;;) {
      const token = this.peek()
      if (token?.kind !== 'op' || !(BINARY_LEVELS[level] as readonly string[]).includes(token.text)) return left
      this.position++
      if (this.atEnd()) throw new ExpressionError(`Missing operand after the last operator "${token.text}".`)
      left = { kind: 'binary', op: token.text, left, right: this.expression(level + 1) }
    }
  }

  private unary(): Expr {
    const token = this.peek()
    if (token?.kind === 'op' && (token.text === '!' || token.text === '-')) {
      this.position++
      return { kind: 'unary', op: token.text, arg: this.unary() }
    }
    return this.primary()
  }

  private primary(): Expr {
    const token = this.peek()
    if (!token) throw new ExpressionError('The expression ends where a value was expected.')
    this.position++
    if (token.kind === 'ref' || token.kind === 'literal') return token
    if (token.kind === 'open') {
      if (this.peek()?.kind === 'close') throw new ExpressionError('Found empty parentheses "()".')
      const inner = this.expression()
      if (this.peek()?.kind !== 'close') throw new ExpressionError('A "(" is missing its closing ")".')
      this.position++
      return inner
    }
    if (token.kind === 'close') throw new ExpressionError('Found a ")" without a matching "(".')
    throw new ExpressionError(`The operator "${token.text}" is not in a place where it can apply.`)
  }
}

/** An If condition: exactly one expression. */
export function parseCondition(source: string): Expr {
  const tokens = tokenize(source)
  if (tokens.length === 0) throw new ExpressionError('The condition is empty.')
  const parser = new Parser(tokens)
  const expression = parser.expression()
  if (!parser.atEnd()) throw new ExpressionError('Two values follow each other without an operator between them.')
  return expression
}

/** The inside of a backtick expression: one or more expressions, joined as text. */
export function parseBacktickExpression(source: string): Expr {
  const tokens = tokenize(source)
  if (tokens.length === 0) throw new ExpressionError('The backtick expression is empty.')
  const parser = new Parser(tokens)
  const parts: Expr[] = []
  while (!parser.atEnd()) {
    if (parser.peek()?.kind === 'close') throw new ExpressionError('Found a ")" without a matching "(".')
    parts.push(parser.expression())
  }
  return parts.length === 1 ? (parts[0] as Expr) : { kind: 'concat', parts }
}

/** Every binding in an expression, in reading order. */
export function refsOf(expression: Expr, into: Extract<Expr, { kind: 'ref' }>[] = []): Extract<Expr, { kind: 'ref' }>[] {
  switch (expression.kind) {
    case 'ref':
      into.push(expression)
      break
    case 'unary':
      refsOf(expression.arg, into)
      break
    case 'binary':
      refsOf(expression.left, into)
      refsOf(expression.right, into)
      break
    case 'concat':
      for (const part of expression.parts) refsOf(part, into)
      break
  }
  return into
}

/** The first operator applied to two literals, if any ("never compare literal with literal"). */
export function literalOnlyOperation(expression: Expr): Extract<Expr, { kind: 'binary' }> | null {
  if (expression.kind === 'binary') {
    if (expression.left.kind === 'literal' && expression.right.kind === 'literal') return expression
    return literalOnlyOperation(expression.left) ?? literalOnlyOperation(expression.right)
  }
  if (expression.kind === 'unary') return literalOnlyOperation(expression.arg)
  if (expression.kind === 'concat') {
    for (const part of expression.parts) {
      const found = literalOnlyOperation(part)
      if (found) return found
    }
  }
  return null
}

/**
 * The type an expression yields, or null when it depends on a binding whose type is unknown.
 * `typeOfRef` answers for bindings.
 */
export function typeOf(expression: Expr, typeOfRef: (ref: ParsedRef | null) => readonly DataType[] | null): DataType | null {
  switch (expression.kind) {
    case 'literal':
      return expression.type
    case 'ref': {
      const types = typeOfRef(expression.ref)
      return types && types.length === 1 ? (types[0] as DataType) : null
    }
    case 'unary':
      return expression.op === '!' ? 'boolean' : 'number'
    case 'binary':
      if (['||', '&&', '==', '!=', '<', '<=', '>', '>='].includes(expression.op)) return 'boolean'
      if (expression.op === '+') {
        const left = typeOf(expression.left, typeOfRef)
        const right = typeOf(expression.right, typeOfRef)
        if (left === 'string' || right === 'string') return 'string'
        return left === null || right === null ? null : 'number'
      }
      return 'number'
    case 'concat':
      return 'string'
  }
}
