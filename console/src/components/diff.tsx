/**
 * A line diff of two texts (pretty-printed JSON): the longest common subsequence of their lines,
 * after the common head and tail are set aside. Added and removed lines carry `+` / `-` as text,
 * not only a colour; long runs of unchanged lines fold to a count.
 */
export type DiffLine = { op: ' ' | '+' | '-'; text: string };

/** Past this many cells the middle is shown as removed-then-added instead of aligned. */
const MAX_CELLS = 4_000_000;

export function diffLines(before: string[], after: string[]): DiffLine[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const same = (lines: string[]) => lines.map((text): DiffLine => ({ op: ' ', text }));
  const middle: DiffLine[] = [];
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS) {
    for (const text of a) middle.push({ op: '-', text });
    for (const text of b) middle.push({ op: '+', text });
  } else {
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    const width = b.length + 1;
    const lcs = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i--) {
      for (let j = b.length - 1; j >= 0; j--) {
        lcs[i * width + j] = a[i] === b[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) {
        middle.push({ op: ' ', text: a[i] });
        i++;
        j++;
      } else if (lcs[(i + 1) * width + j] >= lcs[i * width + j + 1]) middle.push({ op: '-', text: a[i++] });
      else middle.push({ op: '+', text: b[j++] });
    }
    while (i < a.length) middle.push({ op: '-', text: a[i++] });
    while (j < b.length) middle.push({ op: '+', text: b[j++] });
  }
  return [...same(before.slice(0, head)), ...middle, ...same(before.slice(before.length - tail))];
}

const pretty = (value: unknown) => (value === undefined ? [] : JSON.stringify(value, null, 2).split('\n'));

/** Unchanged lines kept around each change. */
const CONTEXT = 3;

export function JsonDiff({ before, after, label }: { before: unknown; after: unknown; label: string }) {
  const lines = diffLines(pretty(before), pretty(after));
  const added = lines.filter((l) => l.op === '+').length;
  const removed = lines.filter((l) => l.op === '-').length;
  const near = new Uint8Array(lines.length);
  lines.forEach((line, i) => {
    if (line.op === ' ') return;
    for (let k = Math.max(0, i - CONTEXT); k <= Math.min(lines.length - 1, i + CONTEXT); k++) near[k] = 1;
  });
  const shown: Array<DiffLine | number> = [];
  for (let i = 0; i < lines.length; i++) {
    if (near[i]) shown.push(lines[i]);
    else if (typeof shown[shown.length - 1] === 'number') (shown[shown.length - 1] as number)++;
    else shown.push(1);
  }
  return (
    <figure class="diff">
      <figcaption>
        {label}: {added} {added === 1 ? 'line' : 'lines'} added, {removed} removed
      </figcaption>
      {added + removed === 0 ? (
        <p class="muted">The two versions are identical.</p>
      ) : (
        // Focusable: a long diff scrolls in its box, and a keyboard must reach it.
        <pre class="json" tabIndex={0}>
          {shown.map((line, i) =>
            typeof line === 'number' ? (
              <span key={i} class="muted" style={{ display: 'block' }}>
                {`  … ${line} unchanged ${line === 1 ? 'line' : 'lines'}`}
              </span>
            ) : (
              <span key={i} class={line.op === '+' ? 'diff-add' : line.op === '-' ? 'diff-del' : undefined} style={{ display: 'block' }}>
                {`${line.op} ${line.text}`}
              </span>
            ),
          )}
        </pre>
      )}
    </figure>
  );
}
