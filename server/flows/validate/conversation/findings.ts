import type { ValidationIssue, ValidationReport } from '../validation-issue.ts'
import type { ConversationErrorCode, ConversationWarningCode } from './codes.ts'

/**
 * Collects what the rule groups find. A rule that reports the same thing twice (a variable
 * used twice in one text) yields one entry, and `hasErrorAt` lets a later rule stay quiet
 * about a value an earlier rule already refused.
 */
export class Findings {
  private readonly errors: ValidationIssue[] = []
  private readonly warnings: ValidationIssue[] = []
  private readonly seen = new Set<string>()
  private readonly errorPaths = new Set<string>()

  error(path: string, code: ConversationErrorCode, message: string): void {
    if (this.add(this.errors, { path, code, message })) this.errorPaths.add(path)
  }

  warning(path: string, code: ConversationWarningCode, message: string): void {
    this.add(this.warnings, { path, code, message })
  }

  hasErrorAt(path: string): boolean {
    return this.errorPaths.has(path)
  }

  report(): ValidationReport {
    return { errors: [...this.errors], warnings: [...this.warnings] }
  }

  private add(list: ValidationIssue[], issue: ValidationIssue): boolean {
    const key = `${list === this.errors ? 'e' : 'w'}\u0000${issue.path}\u0000${issue.code}\u0000${issue.message}`
    if (this.seen.has(key)) return false
    this.seen.add(key)
    list.push(issue)
    return true
  }
}
