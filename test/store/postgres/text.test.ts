import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { documentVector, textQuery, words } from '../../../src/store/postgres/text.js';

/**
 * PostgreSQL's full text is tokenised in JavaScript to give FTS5's words (unicode61,
 * remove_diacritics 2): every character of the Basic Multilingual Plane is compared with what FTS5
 * makes of it between two letters, and edge cases of whole texts.
 */
describe('FTS5-compatible words', () => {
  const fts5 = (texts: string[]): string[][] => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(a, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance');`);
    const insert = db.prepare('INSERT INTO t (rowid, a) VALUES (?, ?)');
    db.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))();
    const out: string[][] = texts.map(() => []);
    for (const row of db.prepare('SELECT term, doc, offset FROM v ORDER BY doc, offset').all() as Array<{ term: string; doc: number; offset: number }>) out[row.doc - 1].push(row.term);
    db.close();
    return out;
  };

  // Known differences: characters newer than FTS5's Unicode tables (folded or joining here), and
  // Ǡ/ǡ, whose dot and macron FTS5 keeps.
  const known = new Set([0x1e0, 0x1e1, 0x37f, 0x528, 0x52a, 0x52c, 0x52e, 0x2066, 0x2067, 0x2068, 0x2069]);

  it('splits and folds every Latin, Greek, Cyrillic, combining and punctuation character as FTS5 does', () => {
    const chars: string[] = [];
    for (const [from, to] of [[0x20, 0x530], [0x1e00, 0x2070]]) for (let code = from; code < to; code++) if (!known.has(code)) chars.push(String.fromCodePoint(code));
    const expected = fts5(chars.map((c) => `x${c}y`));
    const different = chars.filter((c, i) => JSON.stringify(words(`x${c}y`)) !== JSON.stringify(expected[i]));
    assert.deepEqual(different.slice(0, 20).map((c) => `U+${c.codePointAt(0)!.toString(16)}: ${JSON.stringify(words(`x${c}y`))}`), []);
  });

  it('gives FTS5 words for names, paths, accents and quotes', () => {
    const texts = ['db.sales_orders', 'Café Crème brûlée', 'O\'Brien "quoted"', 'Łódź straße', 'x_y.z-w', 'ÉVÉNEMENTS', 'İstanbul ΟΔΟΣ', 'e\u0301t\u00e9', '𝔸bc 😀 x', 'नमस्ते'];
    assert.deepEqual(texts.map(words), fts5(texts));
  });

  it('writes a document with a weight per column and field paths apart', () => {
    assert.equal(documentVector({ name: 'Orders', keywords: 'pii', fieldPaths: 'a.b' }), `'orders':1A '~a':3D '~b':4D 'pii':6C`);
    assert.equal(documentVector({}), '');
  });

  it("keeps under PostgreSQL's 1 MB of distinct lexemes: words past it are left out, known ones still placed", () => {
    // Keywords come last of the columns: the tags' words of 200,000 tags.
    const many = Array.from({ length: 200_000 }, (_, i) => `stall ${i}`).join(' ');
    const vector = documentVector({ name: 'orders', description: 'orders late', keywords: `${many} orders lately` });
    const lexemes = vector.split(' ').map((l) => l.slice(0, l.lastIndexOf(':')));
    const bytes = lexemes.reduce((n, l) => n + Buffer.byteLength(l) - 2, 0);
    assert.ok(bytes <= 1_000_000 && bytes > 990_000, `${bytes} bytes of lexemes`);
    assert.ok(lexemes.includes(`'stall'`) && lexemes.includes(`'late'`) && lexemes.includes(`'185180'`));
    assert.ok(!lexemes.includes(`'199999'`) && !lexemes.includes(`'lately'`), 'the words past the limit');
    // A word already in the document is still placed where it comes again.
    assert.match(vector, /'orders':1A,\d+D,\d+C /);
  });

  it('asks for each word in the columns, a phrase in sequence, the last word a prefix', () => {
    assert.equal(textQuery({ words: ['db.orders'], phrase: false, prefix: true }), `(('db' <-> 'orders':*) | ('~db' <-> '~orders':*))`);
    assert.equal(textQuery({ columns: ['name'], words: ['a', 'b'], phrase: false, prefix: false }), `('a':A) & ('b':A)`);
    assert.equal(textQuery({ columns: ['fieldPaths'], words: ['a b'], phrase: true, prefix: false }), `('~a' <-> '~b')`);
    assert.equal(textQuery({ words: ['...'], phrase: false, prefix: false }), undefined);
  });
});
