import ts from 'typescript'

/**
 * Finds user-facing text written into the app's code instead of its catalogues
 * (app/src/i18n/): JSX text with a letter in it, a string in an attribute a person sees or
 * hears (placeholder, title, aria-label, alt, ...), and anywhere else a string that reads as
 * words (it starts with a capital and a small letter, as "Sign in" or "Waiting", or it is
 * three words or more, as "show or hide this list"). What is code, not text, is left alone:
 * imports, type literals, property names, comparisons (`view === 'waiting'`), the keys given
 * to t(), and what `allowed` lists.
 */
export interface Finding {
  line: number
  text: string
  why: 'jsx text' | 'attribute' | 'string'
}

const SEEN_ATTRIBUTES = new Set(['placeholder', 'title', 'aria-label', 'alt', 'aria-description', 'aria-roledescription', 'aria-placeholder', 'aria-valuetext', 'label'])
/** Attributes whose values are code, never read by a person (class names, link relations, input names). */
const CODE_ATTRIBUTES = new Set(['class', 'classList', 'id', 'name', 'type', 'href', 'src', 'rel', 'role', 'autocomplete', 'inputMode', 'pattern', 'accept', 'for', 'target', 'lang', 'viewBox'])
const LETTER = /\p{L}/u
/** "Sign in", "Waiting": a capital, then a small letter. */
const CAPITALISED = /^\s*\p{Lu}\p{Ll}/u
/** "show or hide this list": three words or more. */
const WORDS = /^[\p{L}'’]+(?:[ ,][\p{L}'’…?.!:]+){2,}/u

export function literalTexts(fileName: string, source: string, allowed: ReadonlySet<string> = new Set()): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, fileName.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const findings: Finding[] = []
  const report = (node: ts.Node, text: string, why: Finding['why']) => {
    const trimmed = text.replace(/\s+/g, ' ').trim()
    if (!trimmed || allowed.has(trimmed)) return
    findings.push({ line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, text: trimmed, why })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isLiteralTypeNode(node) || ts.isTypeAliasDeclaration(node) || ts.isInterfaceDeclaration(node)) return
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
      node.arguments.slice(1).forEach(visit)
      return
    }
    if (ts.isJsxText(node)) {
      if (LETTER.test(node.text)) report(node, node.text, 'jsx text')
      return
    }
    if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(file)
      const value = node.initializer
      if (CODE_ATTRIBUTES.has(name) || name.startsWith('data-')) return
      if (SEEN_ATTRIBUTES.has(name) && value) {
        const strings = ts.isStringLiteral(value) ? [value] : stringsIn(value)
        for (const string of strings) if (LETTER.test(string.text)) report(string, string.text, 'attribute')
        return
      }
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      if (!isCode(node) && (CAPITALISED.test(node.text) || WORDS.test(node.text.trim()))) report(node, node.text, 'string')
      return
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return findings
}

/** The string literals inside an attribute's `{...}` (a ternary's two texts, a template's parts). */
function stringsIn(node: ts.Node): (ts.Node & { text: string })[] {
  const found: (ts.Node & { text: string })[] = []
  const walk = (inner: ts.Node) => {
    if (ts.isCallExpression(inner) && ts.isIdentifier(inner.expression) && inner.expression.text === 't') return
    if (ts.isStringLiteral(inner) || ts.isNoSubstitutionTemplateLiteral(inner) || ts.isTemplateHead(inner) || ts.isTemplateMiddle(inner) || ts.isTemplateTail(inner)) found.push(inner)
    else if (!(ts.isBinaryExpression(inner) && isComparison(inner))) ts.forEachChild(inner, walk)
  }
  walk(node)
  return found
}

function isComparison(node: ts.BinaryExpression): boolean {
  const kind = node.operatorToken.kind
  return kind === ts.SyntaxKind.EqualsEqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsEqualsToken || kind === ts.SyntaxKind.EqualsEqualsToken || kind === ts.SyntaxKind.ExclamationEqualsToken
}

/** A string that is code: a property's name, a compared value, a case label, an index. */
function isCode(node: ts.Node): boolean {
  const parent = node.parent
  if (!parent) return false
  if ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent)) && parent.name === node) return true
  if (ts.isBinaryExpression(parent) && isComparison(parent)) return true
  if (ts.isCaseClause(parent) || ts.isElementAccessExpression(parent)) return true
  return false
}
