import { describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { backupFileName } from '../../server/backups/backup-files.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { consoleSuite } from './support/console-suite.ts'
import { waitUntil } from './support/widget-page.ts'

/** Where the screenshots of these tests go, to be looked at (PARLEY_SHOTS, else the temp folder). */
const SHOTS = process.env.PARLEY_SHOTS ?? '/tmp'
const DAY = 86_400_000

describe('the operations screen lists the backups Parley wrote itself (Chromium, compiled binary)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-console-backups-'))
  // Two earlier backups, as a server that has run for two days leaves them (their content is not read).
  const earlier = [backupFileName(new Date(Date.now() - 2 * DAY)), backupFileName(new Date(Date.now() - DAY))]
  for (const name of earlier) writeFileSync(join(dir, name), new Uint8Array(512 * 1024))
  const suite = consoleSuite({ PARLEY_BACKUP_EVERY: '1d', PARLEY_BACKUP_DIR: dir, PARLEY_BACKUP_KEEP: '7' })

  test('each backup with its size and age, the schedule, and the next one', async () => {
    const admin = await suite.consoleOf(suite.ada, '/app/console/operations')
    const { page } = admin
    const rows = page.locator('[data-backups] tbody tr')
    // The one written at start (the newest was a day old: due) comes first; the screen shows what was there when it loaded.
    await waitUntil(
      async () => {
        await page.locator('[data-backups]').waitFor()
        if ((await rows.count()) === 3) return true
        await page.reload()
        return false
      },
      'the backup written at start',
      { ms: 15_000 },
    )
    const names = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-backup-file')))
    expect(names.slice(1)).toEqual(earlier.toReversed())
    expect(await rows.nth(0).locator('[data-age]').textContent()).toMatch(/^\d+ s ago$/)
    expect(await rows.nth(0).locator('[data-size]').textContent()).toMatch(/^\d+(\.\d)? KB$/)
    expect(await rows.nth(1).locator('[data-age]').textContent()).toBe('1 d 0 h ago')
    expect(await rows.nth(1).locator('[data-size]').textContent()).toBe('512 KB')
    expect(await page.locator('[data-backups-plan]').textContent()).toContain(`Every 1 d into ${dir}, keeping the newest 7.`)
    expect(await page.locator('[data-backup-failure]').count()).toBe(0)
    await page.locator('[data-scheduled-backups]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/console-operations-backups.png`, fullPage: true })
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('on a phone the list fits the screen', async () => {
    const admin = await suite.consoleOf(suite.ada, '/app/console/operations', { viewport: { width: 375, height: 740 }, isMobile: true })
    const { page } = admin
    await page.locator('[data-backups] tbody tr').first().waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0)
    await page.locator('[data-scheduled-backups]').scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/console-operations-backups-phone.png` })
  }, E2E_TIMEOUT)
})

describe('the operations screen shows a backup that failed (Chromium, compiled binary)', () => {
  const blocker = join(mkdtempSync(join(tmpdir(), 'parley-console-backups-')), 'not-a-folder')
  writeFileSync(blocker, 'a file where the backup folder should be')
  const suite = consoleSuite({ PARLEY_BACKUP_EVERY: '6h', PARLEY_BACKUP_DIR: join(blocker, 'backups') })

  test('the failure, when, and why', async () => {
    const admin = await suite.consoleOf(suite.ada, '/app/console/operations')
    const { page } = admin
    const failure = page.locator('[data-backup-failure]')
    await failure.waitFor()
    expect(await failure.textContent()).toContain(`cannot create the folder ${join(blocker, 'backups')}`)
    expect(await failure.isVisible()).toBe(true)
    await failure.scrollIntoViewIfNeeded()
    await page.screenshot({ path: `${SHOTS}/console-operations-backup-failed.png`, fullPage: true })
  }, E2E_TIMEOUT)
})
