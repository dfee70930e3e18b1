import { describe, expect, test } from 'bun:test'
import { PASSAGE_OVERLAP_CHARS, PASSAGE_TARGET_CHARS, splitPassages } from '../../server/knowledge/passages.ts'
import { searchTerms } from '../../server/knowledge/search-terms.ts'

const sentence = (n: number) => `Sentence number ${n} says something about the product and how it is used.`

describe('splitting a text into passages', () => {
  test('a section per heading, with the path of headings above it and the nearest one\'s anchor', () => {
    const text = 'Intro before any heading.\r\n\r\n# Guide\r\n\r\nStart here.\r\n\r\n## Install *it*\r\n\r\nRun the [binary](http://x).\r\n\r\n### On Linux\r\n\r\nUse systemd.\r\n\r\n## Configure\r\n\r\nSet the port.\r\n\r\n# FAQ\r\n\r\n## Configure\r\n\r\nAgain.'
    expect(splitPassages(text)).toEqual([
      { heading: '', anchor: '', text: 'Intro before any heading.' },
      { heading: 'Guide', anchor: 'guide', text: 'Start here.' },
      { heading: 'Guide › Install it', anchor: 'install-it', text: 'Run the [binary](http://x).' },
      { heading: 'Guide › Install it › On Linux', anchor: 'on-linux', text: 'Use systemd.' },
      { heading: 'Guide › Configure', anchor: 'configure', text: 'Set the port.' },
      { heading: 'FAQ › Configure', anchor: 'configure-1', text: 'Again.' },
    ])
  })

  test('a # inside a code fence is not a heading, and the fence stays whole', () => {
    const text = '# Shell\n\nRun:\n\n```sh\n# not a heading\n\necho hi\n```\n\nDone.'
    expect(splitPassages(text)).toEqual([{ heading: 'Shell', anchor: 'shell', text: 'Run:\n\n```sh\n# not a heading\n\necho hi\n```\n\nDone.' }])
  })

  test('a long section is packed into passages of about the target size, each starting with the end of the one before', () => {
    const paragraphs = Array.from({ length: 40 }, (_, i) => sentence(i))
    const passages = splitPassages(`# Long\n\n${paragraphs.join('\n\n')}`)
    expect(passages.length).toBeGreaterThan(2)
    for (const passage of passages) expect(passage.text.length).toBeLessThanOrEqual(PASSAGE_TARGET_CHARS + PASSAGE_OVERLAP_CHARS + 2)
    for (let i = 1; i < passages.length; i++) {
      const previous = passages[i - 1]?.text ?? ''
      // The next one opens with words from the last PASSAGE_OVERLAP_CHARS of this one.
      expect(previous.slice(-PASSAGE_OVERLAP_CHARS)).toContain(passages[i]?.text.slice(0, 60) ?? '-')
    }
    // Every paragraph is in some passage whole.
    for (const paragraph of paragraphs) expect(passages.some((passage) => passage.text.includes(paragraph))).toBe(true)
  })

  test('a paragraph longer than a passage is cut at sentence ends', () => {
    const paragraph = Array.from({ length: 30 }, (_, i) => sentence(i)).join(' ')
    const passages = splitPassages(paragraph)
    expect(passages.length).toBeGreaterThan(1)
    expect(passages[0]?.text.endsWith('.')).toBe(true)
    expect(passages.map((p) => p.text).join(' ')).toContain(sentence(29))
  })

  test('headings alone and blank text make no passage', () => {
    expect(splitPassages('# A\n\n## B\n\n')).toEqual([])
    expect(splitPassages(' \n\n ')).toEqual([])
  })
})

describe('the words of a query', () => {
  test('folded, de-duplicated, stopwords dropped unless nothing else is left, plain letters and digits only', () => {
    expect(searchTerms('How do I reset my Password? password!')).toEqual(['reset', 'password'])
    expect(searchTerms('Café "OR" NEAR(x) *')).toEqual(['cafe', 'near'])
    expect(searchTerms('Who are you')).toEqual(['who', 'are', 'you'])
    expect(searchTerms('?! -- ')).toEqual([])
    expect(searchTerms('port 3000 a 5')).toEqual(['port', '3000', '5'])
    expect(searchTerms(Array.from({ length: 50 }, (_, i) => `word${i}`).join(' '))).toHaveLength(32)
  })
})
