import { afterAll, describe, expect, test } from 'bun:test'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Asset, inputsHash, stamp, upToDate } from '../../scripts/build-assets.ts'

const base = mkdtempSync(join(tmpdir(), 'parley-stamps-'))
afterAll(() => rmSync(base, { recursive: true, force: true }))
const write = (path: string, text: string) => {
  mkdirSync(join(base, path, '..'), { recursive: true })
  writeFileSync(join(base, path), text)
}

/** npm start rebuilds the widget and the app only when what they are built from changed. */
describe('the build stamps of npm start', () => {
  const asset: Asset = { name: 'widget', inputs: ['widget/src', 'scripts/build-widget.ts'], outputs: ['dist/widget/widget.js'], build: async () => {} }

  test('built once, a start with nothing changed builds nothing; any change to an input, a new file, or a missing output builds again', () => {
    write('widget/src/a.ts', 'one')
    write('widget/src/deep/b.ts', 'two')
    write('scripts/build-widget.ts', 'script')
    expect(upToDate(base, asset)).toBe(false)
    write('dist/widget/widget.js', 'built')
    stamp(base, asset, inputsHash(base, asset.inputs))
    expect(upToDate(base, asset)).toBe(true)

    write('widget/src/deep/b.ts', 'two!')
    expect(upToDate(base, asset)).toBe(false)
    write('widget/src/deep/b.ts', 'two')
    expect(upToDate(base, asset)).toBe(true)
    write('widget/src/c.ts', 'new')
    expect(upToDate(base, asset)).toBe(false)
    rmSync(join(base, 'widget/src/c.ts'))
    expect(upToDate(base, asset)).toBe(true)
    write('scripts/build-widget.ts', 'script changed')
    expect(upToDate(base, asset)).toBe(false)
    write('scripts/build-widget.ts', 'script')
    rmSync(join(base, 'dist/widget/widget.js'))
    expect(upToDate(base, asset)).toBe(false)
  })

  test('a file moved to another name is a change, though its bytes are the same', () => {
    const moved: Asset = { ...asset, name: 'moved', inputs: ['moved'] }
    write('moved/x.ts', 'same')
    write('dist/widget/widget.js', 'built')
    stamp(base, moved, inputsHash(base, moved.inputs))
    rmSync(join(base, 'moved/x.ts'))
    write('moved/y.ts', 'same')
    expect(upToDate(base, moved)).toBe(false)
  })
})
