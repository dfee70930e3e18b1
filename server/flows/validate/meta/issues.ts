import type { ValidationIssue, ValidationReport } from '../validation-issue.ts'
import { MetaCode } from './codes.ts'

/** Beyond this many errors (or warnings) a report only says how many more there are. */
export const MAX_REPORTED_ISSUES = 1000

/**
 * Collects errors and warnings. The same finding reached twice (one binding used in two
 * rules, say) is reported once, and a broken 10 MB document does not answer with a list
 * larger than itself.
 */
export class IssueCollector {
  private readonly errors: ValidationIssue[] = []
  private readonly warnings: ValidationIssue[] = []
  private readonly seen = new Set<string>()
  private droppedErrors = 0
  private droppedWarnings = 0

  error(path: string, code: MetaCode, message: string): void {
    if (this.isNew('e', path, code, message)) {
      if (this.errors.length < MAX_REPORTED_ISSUES) this.errors.push({ path, code, message })
      else this.droppedErrors++
    }
  }

  warning(path: string, code: MetaCode, message: string): void {
    if (this.isNew('w', path, code, message)) {
      if (this.warnings.length < MAX_REPORTED_ISSUES) this.warnings.push({ path, code, message })
      else this.droppedWarnings++
    }
  }

  report(): ValidationReport {
    return { errors: withSummary(this.errors, this.droppedErrors, 'errors'), warnings: withSummary(this.warnings, this.droppedWarnings, 'warnings') }
  }

  private isNew(kind: string, path: string, code: MetaCode, message: string): boolean {
    const key = `${kind}\u0000${path}\u0000${code}\u0000${message}`
    if (this.seen.has(key)) return false
    this.seen.add(key)
    return true
  }
}

function withSummary(list: ValidationIssue[], dropped: number, what: string): ValidationIssue[] {
  if (dropped === 0) return list
  return [...list, { path: '', code: MetaCode.TOO_MANY_ISSUES, message: `${dropped} more ${what} were found but not listed. Fix these first, then validate again.` }]
}
