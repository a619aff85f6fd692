import { readFileSync } from 'node:fs';

/** A fenced shell block of a Markdown file, with where it starts (for messages). */
export interface ShellBlock {
  file: string;
  /** 1-based line of the block's first code line. */
  line: number;
  code: string;
  /** Marked `<!-- docs-check: not run (…) -->`: its commands are checked against the CLI, not run. */
  notRun: boolean;
}

const NOT_RUN = /^<!--\s*docs-check:\s*not run\b.*-->\s*$/;

/** The ```sh blocks of a Markdown file, in order. Other languages (yaml, json, text) are prose. */
export function shellBlocks(file: string): ShellBlock[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: unclosed code fence`);
    if (fence[1] === 'sh') {
      const previous = lines.slice(0, i).reverse().find((l) => l.trim() !== '') ?? '';
      blocks.push({ file, line: i + 2, code: lines.slice(i + 1, end).join('\n'), notRun: NOT_RUN.test(previous.trim()) });
    }
    i = end;
  }
  return blocks;
}

/**
 * What a documented command should answer, from the comment that follows it: `# → 409 …` expects
 * that status; no such comment expects a 2xx. The command's first line is `line` (0-based).
 */
export function expectedStatus(lines: string[], line: number): number | undefined {
  for (let i = line + 1; i < lines.length; i++) {
    const text = lines[i];
    if (text.startsWith('#')) {
      const match = /^# → (\d{3})\b/.exec(text);
      return match ? Number(match[1]) : undefined;
    }
    if (/^\S/.test(text) && !text.startsWith('}') && !text.startsWith(']')) return undefined; // the next command
  }
  return undefined;
}

/**
 * The urnbase invocations of a block that is not run: the subcommand words and the flags given,
 * for `npx urnbase …`, `node dist/src/main.js …` and `npm start -- …` (which is `serve`).
 */
export function cliInvocations(code: string): { words: string[]; flags: string[]; text: string }[] {
  const joined = code.replace(/\\\n\s*/g, ' ');
  const found: { words: string[]; flags: string[]; text: string }[] = [];
  for (const line of joined.split('\n')) {
    const text = line.replace(/\s#.*$/, '');
    const match = /(?:npx urnbase|node dist\/src\/main\.js|npm start --)\s*(.*)$/.exec(text);
    if (!match) continue;
    const args = match[1].split(/\s+/).filter(Boolean);
    const isServe = text.includes('npm start --');
    const words: string[] = isServe ? ['serve'] : [];
    if (!isServe) for (const arg of args) {
      if (!/^[a-z]+$/.test(arg)) break;
      words.push(arg);
    }
    const flags = args.filter((a) => /^--[a-z][a-z-]*/.test(a)).map((a) => a.replace(/=.*$/, ''));
    found.push({ words, flags, text: text.trim() });
  }
  return found;
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors a Markdown file's headings give (a repeated heading gets -1, -2, … as on GitHub). */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let inFence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    const heading = inFence ? null : /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]);
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return anchors;
}

/** The links of a Markdown file to other files of the tree (not URLs), outside code fences. */
export function localLinks(text: string): { target: string; anchor?: string; line: number }[] {
  const links: { target: string; anchor?: string; line: number }[] = [];
  let inFence = false;
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) inFence = !inFence;
    if (inFence) return;
    for (const [, href] of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(href)) continue;
      const [target, anchor] = href.split('#');
      links.push({ target, anchor: anchor || undefined, line: i + 1 });
    }
  });
  return links;
}

/**
 * The catalog a guide's examples run on: its first sh block, marked not run, starts a server
 * (`npm start` or `urnbase serve`), and its `--data-dir` (default `./data`) is the guide's own
 * data dir, relative to where the reader stands. Undefined when the guide does not open so.
 */
export function guideCatalog(blocks: ShellBlock[]): { dataDir: string; block: ShellBlock } | undefined {
  const first = blocks[0];
  if (!first?.notRun) return undefined;
  const serve = cliInvocations(first.code).find((c) => c.words[0] === 'serve') ?? (/\bnpm start\b/.test(first.code) ? { text: '' } : undefined);
  if (!serve) return undefined;
  const dataDir = /--data-dir[= ](\S+)/.exec(serve.text)?.[1] ?? './data';
  return { dataDir: dataDir.replace(/^\.\//, ''), block: first };
}

/** The `## ` headings of a Markdown file, in order, outside code fences. */
export function sectionHeadings(text: string): string[] {
  const headings: string[] = [];
  let inFence = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    else if (!inFence && line.startsWith('## ')) headings.push(line.slice(3).trim());
  }
  return headings;
}
