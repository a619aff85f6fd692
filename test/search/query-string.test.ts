import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_QUERY_LENGTH, QueryNode, QuerySyntaxError, parseQuery } from '../../src/search/query-string.js';
import { seeded } from '../seeded.js';

const ALL: QueryNode = { kind: 'all' };

function word(value: string, column: number): QueryNode {
  return { kind: 'term', value, prefix: true, column };
}

function fieldTerm(field: string, value: string, column: number, prefix = false): QueryNode {
  return { kind: 'term', field, value, prefix, column };
}

function and(...children: QueryNode[]): QueryNode {
  return { kind: 'and', children };
}

function or(...children: QueryNode[]): QueryNode {
  return { kind: 'or', children };
}

function not(child: QueryNode): QueryNode {
  return { kind: 'not', child };
}

function assertSyntaxError(text: string, column: number, reason: string): void {
  assert.throws(
    () => parseQuery(text),
    (e: unknown) => {
      assert.ok(e instanceof QuerySyntaxError, `expected a QuerySyntaxError, got ${String(e)}`);
      assert.equal(e.name, 'QuerySyntaxError');
      assert.equal(e.reason, reason);
      assert.equal(e.column, column);
      assert.equal(e.message, `Invalid query at column ${column}: ${reason}`);
      return true;
    },
  );
}

describe('query string: match everything', () => {
  it('parses a lone * as all', () => {
    assert.deepEqual(parseQuery('*'), ALL);
  });

  it('allows whitespace around a lone *', () => {
    assert.deepEqual(parseQuery('  *\t'), ALL);
  });

  it('parses an empty or blank query as all', () => {
    assert.deepEqual(parseQuery(''), ALL);
    assert.deepEqual(parseQuery(' \t\n '), ALL);
  });

  it('drops * from an AND', () => {
    assert.deepEqual(parseQuery('* AND name:x'), fieldTerm('name', 'x', 7));
    assert.deepEqual(parseQuery('a * b'), and(word('a', 1), word('b', 5)));
  });

  it('makes an OR containing * all', () => {
    assert.deepEqual(parseQuery('name:x OR *'), ALL);
    assert.deepEqual(parseQuery('(a OR *) b'), word('b', 10));
  });

  it('reads an AND of only * as all', () => {
    assert.deepEqual(parseQuery('* *'), ALL);
    assert.deepEqual(parseQuery('(*) AND *'), ALL);
  });

  it('keeps a negated * as a NOT of all', () => {
    assert.deepEqual(parseQuery('NOT *'), not(ALL));
  });
});

describe('query string: free words and phrases', () => {
  it('parses a free word as a prefix term', () => {
    assert.deepEqual(parseQuery('orders'), word('orders', 1));
  });

  it('strips a trailing * from a free word, which stays a prefix term', () => {
    assert.deepEqual(parseQuery('ord*'), word('ord', 1));
  });

  it('strips every trailing * but keeps inner ones', () => {
    assert.deepEqual(parseQuery('o*d**'), word('o*d', 1));
  });

  it('gives a word the column where it starts', () => {
    assert.deepEqual(parseQuery('   orders'), word('orders', 4));
  });

  it('treats lower-case and/or/not as ordinary words', () => {
    assert.deepEqual(parseQuery('a and b or not c'), and(word('a', 1), word('and', 3), word('b', 7), word('or', 9), word('not', 12), word('c', 16)));
  });

  it('treats words that merely start with an operator name as words', () => {
    assert.deepEqual(parseQuery('ANDROID ORACLE NOTES'), and(word('ANDROID', 1), word('ORACLE', 9), word('NOTES', 16)));
  });

  it('treats a word starting with a digit and holding a colon as a free word', () => {
    assert.deepEqual(parseQuery('12:30'), word('12:30', 1));
  });

  it('keeps punctuation other than parentheses inside words', () => {
    assert.deepEqual(parseQuery('db.t-1 a&b x|y e-mail@x.com'), and(word('db.t-1', 1), word('a&b', 8), word('x|y', 12), word('e-mail@x.com', 16)));
  });

  it('unescapes any character in a free word', () => {
    assert.deepEqual(parseQuery('foo\\(bar\\)'), word('foo(bar)', 1));
    assert.deepEqual(parseQuery('a\\ b'), word('a b', 1));
  });

  it('reads an escaped operator name as a word', () => {
    assert.deepEqual(parseQuery('\\AND'), word('AND', 1));
  });

  it('reads an escaped colon as part of a free word', () => {
    assert.deepEqual(parseQuery('a\\:b'), word('a:b', 1));
  });

  it('ends a word at a parenthesis', () => {
    assert.deepEqual(parseQuery('foo(bar)'), and(word('foo', 1), word('bar', 5)));
  });

  it('parses a phrase at the column of its opening quote', () => {
    assert.deepEqual(parseQuery('  "sales orders"'), { kind: 'phrase', value: 'sales orders', column: 3 });
  });

  it('unescapes \\" and \\\\ inside a phrase', () => {
    assert.deepEqual(parseQuery('"say \\"hi\\" \\\\ bye"'), { kind: 'phrase', value: 'say "hi" \\ bye', column: 1 });
  });

  it('keeps other backslashes inside a phrase as typed', () => {
    assert.deepEqual(parseQuery('"C:\\dir\\file"'), { kind: 'phrase', value: 'C:\\dir\\file', column: 1 });
  });

  it('keeps operators, parentheses and * inside a phrase literal', () => {
    assert.deepEqual(parseQuery('"a AND (b) OR *"'), { kind: 'phrase', value: 'a AND (b) OR *', column: 1 });
  });

  it('accepts an empty phrase', () => {
    assert.deepEqual(parseQuery('""'), { kind: 'phrase', value: '', column: 1 });
  });
});

describe('query string: field clauses', () => {
  it('parses field:value as an exact (non-prefix) term', () => {
    assert.deepEqual(parseQuery('name:orders'), fieldTerm('name', 'orders', 1));
  });

  it('parses field:val* as a prefix term without the *', () => {
    assert.deepEqual(parseQuery('name:ord*'), fieldTerm('name', 'ord', 1, true));
  });

  it('reads an escaped trailing * as a literal, not a prefix', () => {
    assert.deepEqual(parseQuery('name:ord\\*'), fieldTerm('name', 'ord*', 1));
  });

  it('parses field:* as exists', () => {
    assert.deepEqual(parseQuery('owners:*'), { kind: 'exists', field: 'owners', column: 1 });
  });

  it('gives a field clause the column where its field name starts', () => {
    assert.deepEqual(parseQuery('a  qualifiedName:x'), and(word('a', 1), fieldTerm('qualifiedName', 'x', 4)));
  });

  it('accepts dotted and underscored field names', () => {
    assert.deepEqual(
      parseQuery('structuredProperties.com_example.privacy.retentionTime:90 _x1:y structuredProperties.com_example_x:z'),
      and(
        fieldTerm('structuredProperties.com_example.privacy.retentionTime', '90', 1),
        fieldTerm('_x1', 'y', 59),
        fieldTerm('structuredProperties.com_example_x', 'z', 65),
      ),
    );
  });

  it('does not validate which fields exist', () => {
    assert.deepEqual(parseQuery('noSuchField:x'), fieldTerm('noSuchField', 'x', 1));
  });

  it('parses an unquoted URN value, colons included', () => {
    assert.deepEqual(parseQuery('tags:urn:li:tag:pii'), fieldTerm('tags', 'urn:li:tag:pii', 1));
  });

  it('parses a quoted URN with parentheses as a fielded phrase', () => {
    assert.deepEqual(parseQuery('urn:"urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)"'), {
      kind: 'phrase',
      field: 'urn',
      value: 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
      column: 1,
    });
  });

  it('parses an unquoted URN with escaped parentheses', () => {
    assert.deepEqual(
      parseQuery('urn:urn:li:dataset:\\(urn:li:dataPlatform:hive,db.t,PROD\\)'),
      fieldTerm('urn', 'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)', 1),
    );
  });

  it('ends an unquoted value at a parenthesis', () => {
    assert.deepEqual(parseQuery('(tags:urn:li:tag:pii)'), fieldTerm('tags', 'urn:li:tag:pii', 2));
  });

  it('parses a field with a phrase', () => {
    assert.deepEqual(parseQuery('description:"sales orders"'), { kind: 'phrase', field: 'description', value: 'sales orders', column: 1 });
  });

  it('unescapes any character in an unquoted value', () => {
    assert.deepEqual(parseQuery('name:a\\ b'), fieldTerm('name', 'a b', 1));
  });

  it('parses the four range operators with the raw value', () => {
    assert.deepEqual(parseQuery('n:>10 d:>=2024-05-01 x:<-3.5 y:<=0'), and(
      { kind: 'range', field: 'n', op: '>', value: '10', column: 1 },
      { kind: 'range', field: 'd', op: '>=', value: '2024-05-01', column: 7 },
      { kind: 'range', field: 'x', op: '<', value: '-3.5', column: 22 },
      { kind: 'range', field: 'y', op: '<=', value: '0', column: 30 },
    ));
  });

  it('parses _exists_:field', () => {
    assert.deepEqual(parseQuery('_exists_:structuredProperties.com_example.privacy.retentionTime'), {
      kind: 'exists',
      field: 'structuredProperties.com_example.privacy.retentionTime',
      column: 1,
    });
  });

  it('reads a field name that spells an operator as a field', () => {
    assert.deepEqual(parseQuery('AND:x'), fieldTerm('AND', 'x', 1));
  });
});

describe('query string: boolean operators', () => {
  it('joins juxtaposed clauses with AND', () => {
    assert.deepEqual(parseQuery('sales orders'), and(word('sales', 1), word('orders', 7)));
  });

  it('parses explicit AND and &&', () => {
    assert.deepEqual(parseQuery('a AND b && c'), and(word('a', 1), word('b', 7), word('c', 12)));
  });

  it('parses OR and ||', () => {
    assert.deepEqual(parseQuery('a OR b || c'), or(word('a', 1), word('b', 6), word('c', 11)));
  });

  it('parses NOT and !', () => {
    assert.deepEqual(parseQuery('NOT a'), not(word('a', 5)));
    assert.deepEqual(parseQuery('!a'), not(word('a', 2)));
    assert.deepEqual(parseQuery('! a'), not(word('a', 3)));
  });

  it('reads operators glued to parentheses', () => {
    assert.deepEqual(parseQuery('NOT(a)OR(b)'), or(not(word('a', 5)), word('b', 10)));
  });

  it('reads a prefix - as NOT', () => {
    assert.deepEqual(parseQuery('-tags:pii'), not(fieldTerm('tags', 'pii', 2)));
    assert.deepEqual(parseQuery('-"a b"'), not({ kind: 'phrase', value: 'a b', column: 2 }));
    assert.deepEqual(parseQuery('-(a OR b)'), not(or(word('a', 3), word('b', 8))));
  });

  it('reads a prefix + as the clause itself', () => {
    assert.deepEqual(parseQuery('+name:x -y'), and(fieldTerm('name', 'x', 2), not(word('y', 10))));
  });

  it('keeps a - inside a word as part of the word', () => {
    assert.deepEqual(parseQuery('a-b'), word('a-b', 1));
  });

  it('cancels repeated negations in pairs: NOT -a is a, NOT NOT -a is NOT a', () => {
    assert.deepEqual(parseQuery('NOT -a'), word('a', 6));
    assert.deepEqual(parseQuery('NOT NOT -a'), not(word('a', 10)));
  });

  it('binds AND tighter than OR', () => {
    assert.deepEqual(parseQuery('a b OR c'), or(and(word('a', 1), word('b', 3)), word('c', 8)));
    assert.deepEqual(parseQuery('a OR b AND c'), or(word('a', 1), and(word('b', 6), word('c', 12))));
  });

  it('binds NOT tighter than AND', () => {
    assert.deepEqual(parseQuery('NOT a b'), and(not(word('a', 5)), word('b', 7)));
  });

  it('groups with parentheses', () => {
    assert.deepEqual(parseQuery('(a OR b) AND c'), and(or(word('a', 2), word('b', 7)), word('c', 14)));
  });

  it('unwraps redundant parentheses', () => {
    assert.deepEqual(parseQuery('((a))'), word('a', 3));
  });

  it('flattens nested ANDs', () => {
    assert.deepEqual(parseQuery('a AND (b AND c)'), and(word('a', 1), word('b', 8), word('c', 14)));
    assert.deepEqual(parseQuery('(a b) (c d)'), and(word('a', 2), word('b', 4), word('c', 8), word('d', 10)));
  });

  it('flattens nested ORs', () => {
    assert.deepEqual(parseQuery('(a OR b) OR (c OR d)'), or(word('a', 2), word('b', 7), word('c', 14), word('d', 19)));
  });

  it('does not flatten an AND inside an OR', () => {
    assert.deepEqual(parseQuery('(a b) OR (c d)'), or(and(word('a', 2), word('b', 4)), and(word('c', 11), word('d', 13))));
  });

  it('combines fields, phrases and operators', () => {
    assert.deepEqual(parseQuery('platform:hive AND (tags:urn:li:tag:pii OR "customer data") -_exists_:deprecation'), and(
      fieldTerm('platform', 'hive', 1),
      or(fieldTerm('tags', 'urn:li:tag:pii', 20), { kind: 'phrase', value: 'customer data', column: 43 }),
      not({ kind: 'exists', field: 'deprecation', column: 61 }),
    ));
  });
});

describe('query string: errors', () => {
  const errors: Array<[string, string, number, string]> = [
    ['an unterminated phrase', 'a "sales', 3, 'unterminated phrase (missing closing ")'],
    ['a phrase whose last quote is escaped', '"a\\"', 1, 'unterminated phrase (missing closing ")'],
    ['an unterminated fielded phrase', 'name:"x', 6, 'unterminated phrase (missing closing ")'],
    ['a field with nothing after the colon', 'name:', 6, 'expected a value after "name:"'],
    ['a field followed by whitespace', 'name: x', 6, 'expected a value after "name:"'],
    ['a field followed by )', '(name:)', 7, 'expected a value after "name:"'],
    ['a field followed by (', 'name:(a OR b)', 6, 'unexpected "(" after "name:" (quote a value that contains parentheses)'],
    ['a range without a value', 'size:>= 3', 8, 'expected a value after ">="'],
    ['a range at the end', 'size:<', 7, 'expected a value after "<"'],
    ['_exists_: without a field', '_exists_: a', 10, 'expected a field name after "_exists_:"'],
    ['_exists_: with a bad field', 'a _exists_:9x', 12, 'invalid field name "9x" after "_exists_:"'],
    ['a dangling AND', 'a AND', 6, 'expected a query after AND'],
    ['a dangling && before )', '(a && )', 7, 'expected a query after &&'],
    ['AND followed by OR', 'a AND OR b', 7, 'expected a query after AND'],
    ['a dangling OR', 'a OR  ', 7, 'expected a query after OR'],
    ['OR at the start', 'OR b', 1, 'expected a query before OR'],
    ['AND at the start of a group', 'x (AND b)', 4, 'expected a query before AND'],
    ['NOT alone', 'NOT', 4, 'expected a query after NOT'],
    ['NOT before OR', 'NOT OR a', 5, 'expected a query after NOT'],
    ['a dangling !', 'a !', 4, 'expected a query after !'],
    ['a detached -', 'a - b', 4, 'expected a query after -'],
    ['a - at the end', 'a -', 4, 'expected a query after -'],
    ['a detached +', '+ a', 2, 'expected a query after +'],
    ['a - before AND', 'a -AND b', 4, 'expected a query after -'],
    ['an unmatched )', 'a) b', 2, 'unexpected ")"'],
    ['a ) at the start', ')', 1, 'unexpected ")"'],
    ['an unmatched (', 'a (b OR c', 3, 'missing closing ")"'],
    ['the outer of two unmatched (', '((a)', 1, 'missing closing ")"'],
    ['a lone (', '(', 1, 'missing closing ")"'],
    ['empty parentheses', 'a ()', 3, 'expected a query inside ( )'],
    ['a lone :', 'a : b', 3, 'unexpected ":"'],
    ['a word starting with :', ':foo', 1, 'unexpected ":"'],
    ['a backslash at the end', 'foo\\', 5, 'expected a character after "\\"'],
  ];
  for (const [why, text, column, reason] of errors) {
    it(`rejects ${why}: ${JSON.stringify(text)}`, () => {
      assertSyntaxError(text, column, reason);
    });
  }

  it('reports the leftmost error', () => {
    assertSyntaxError('a AND ) "open', 7, 'expected a query after AND');
  });

  it('accepts a query of exactly MAX_QUERY_LENGTH characters', () => {
    assert.deepEqual(parseQuery('a'.repeat(MAX_QUERY_LENGTH)), word('a'.repeat(MAX_QUERY_LENGTH), 1));
  });

  it('rejects a longer query at the first column past the limit', () => {
    assert.equal(MAX_QUERY_LENGTH, 4096);
    assertSyntaxError('a'.repeat(MAX_QUERY_LENGTH + 1), 4097, 'query too long (at most 4096 characters)');
  });
});

describe('query string: robustness', () => {
  it('rejects 10,000 ( as too long, without overflowing the stack', () => {
    assertSyntaxError('('.repeat(10_000), 4097, 'query too long (at most 4096 characters)');
  });

  it('accepts 100 levels of parentheses', () => {
    assert.deepEqual(parseQuery(`${'('.repeat(100)}a${')'.repeat(100)}`), word('a', 101));
  });

  it('rejects the 101st nested ( at its column', () => {
    assertSyntaxError(`${'('.repeat(101)}a${')'.repeat(101)}`, 101, 'too deeply nested (at most 100 levels)');
    assertSyntaxError('('.repeat(4000), 101, 'too deeply nested (at most 100 levels)');
  });

  it('counts depth by nesting, not by the number of groups', () => {
    const node = parseQuery('(a) '.repeat(200));
    assert.equal(node.kind === 'and' && node.children.length, 200);
  });

  it('reads a long run of prefix operators as one negation or none, not thousands of nested ones', () => {
    assert.deepEqual(parseQuery(`${'-'.repeat(4000)}a`), word('a', 4001));
    assert.deepEqual(parseQuery(`${'-'.repeat(3999)}a`), not(word('a', 4000)));
    assert.deepEqual(parseQuery(`${'NOT '.repeat(1000)}a`), word('a', 4001));
  });

  it('either parses or throws QuerySyntaxError for random input, with well-formed trees', () => {
    const alphabet = ['a', 'b', ' ', ':', '"', '(', ')', '*', '-', '+', '!', '&', '|', '\\', '<', '>', '=', '_', '.'];
    alphabet.push('AND', 'OR', 'NOT', ' AND ', ' OR ', ' NOT ', 'x:', '_exists_:');
    const random = seeded(20240501);
    for (let n = 0; n < 5000; n++) {
      const length = Math.floor(random() * 30);
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      let node: QueryNode;
      try {
        node = parseQuery(text);
      } catch (e) {
        assert.ok(e instanceof QuerySyntaxError, `${JSON.stringify(text)} threw ${String(e)}`);
        assert.ok(e.column >= 1 && e.column <= text.length + 1, `${JSON.stringify(text)}: column ${e.column}`);
        continue;
      }
      assertWellFormed(node, text);
    }
  });
});

/** Checks the tree invariants promised by QueryNode: 2+ flattened children, `all` only at the root or under NOT. */
function assertWellFormed(node: QueryNode, text: string): void {
  const where = JSON.stringify(text);
  if (node.kind === 'and' || node.kind === 'or') {
    assert.ok(node.children.length >= 2, `${where}: ${node.kind} with fewer than 2 children`);
    for (const child of node.children) {
      assert.notEqual(child.kind, node.kind, `${where}: nested ${node.kind} not flattened`);
      assert.notEqual(child.kind, 'all', `${where}: * left inside ${node.kind}`);
      assertWellFormed(child, text);
    }
  } else if (node.kind === 'not') {
    assertWellFormed(node.child, text);
  } else if ('column' in node) {
    assert.ok(node.column >= 1 && node.column <= text.length, `${where}: column ${node.column}`);
  }
}
