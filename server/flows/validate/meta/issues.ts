import type { ValidationIssue, ValidationReport } from '../validation-issue.ts'
import type { MetaCode } from './codes.ts'

/**
 * Collects errors and warnings. The same finding reached twice (one binding used in two
 * rules, say) is reported once.
 */
export class IssueCollector {
  private readonly errors: ValidationIssue[] = []
  private readonly warnings: ValidationIssue[] = []
  private readonly seen = new Set<string>()

  error(path: string, code: MetaCode, message: string): void {
    this.add(this.errors, path, code, message)
  }

  warning(path: string, code: MetaCode, message: string): void {
    this.add(this.warnings, path, code, message)
  }

  report(): ValidationReport {
    return { errors: this.errors, warnings: this.warnings }
  }

  private add(list: ValidationIssue[], path: string, code: MetaCode, message: string): void {
    const key = `${list === this.errors ? 'e' : 'w'}\u0000${path}\u0000${code}\u0000${message}`
    if (this.seen.has(key)) return
    this.seen.add(key)
    list.push({ path, code, message })
  }
}
