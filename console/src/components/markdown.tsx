import type MarkdownIt from 'markdown-it';
import { useEffect, useState } from 'preact/hooks';

/**
 * Markdown as DataHub's descriptions are written, rendered safely: markdown-it with raw HTML off
 * (any markup typed is shown as text), and its link check, which refuses `javascript:`,
 * `vbscript:`, `file:` and `data:` URLs (such a link shows its text, not a link); images are not rendered. Links open in a new tab without
 * handing it this page (`noopener`). markdown-it (50 KB gzipped with its entity table) is loaded
 * the first time a description is shown, not with the console; until then the text shows as is.
 */
let render: ((text: string) => string) | undefined;
let plain: ((text: string) => string) | undefined;
let loading: Promise<unknown> | undefined;

/**
 * Links are parsed whatever their URL, and those markdown-it's check refuses keep their text
 * without being links: left unparsed, `[docs](javascript:…)` would show as raw markdown.
 */
function refusedLinksAsText(md: MarkdownIt): void {
  const safe = md.validateLink.bind(md);
  md.validateLink = () => true;
  md.core.ruler.push('refused_links_as_text', (state) => {
    for (const block of state.tokens) {
      if (!block.children) continue;
      let dropping = false;
      block.children = block.children.filter((token) => {
        if (token.type === 'link_open' && !safe(token.attrGet('href') ?? '')) return !(dropping = true);
        if (token.type === 'link_close' && dropping) return (dropping = false);
        return true;
      });
    }
  });
}

function configured(md: MarkdownIt): (text: string) => string {
  // No images: a description could otherwise make every reader's browser fetch a URL of its choosing.
  md.disable('image');
  refusedLinksAsText(md);
  const defaultLink = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
  md.renderer.rules.link_open = (tokens, i, options, env, self) => {
    tokens[i].attrSet('target', '_blank');
    tokens[i].attrSet('rel', 'noopener noreferrer');
    return defaultLink(tokens, i, options, env, self);
  };
  return (text) => md.render(text);
}

function load(): Promise<unknown> {
  loading ??= import('markdown-it').then(({ default: Markdown }) => {
    render = configured(new Markdown({ html: false, linkify: true, breaks: true }));
    // html: true here so that markup is parsed as such, and dropped: only the text tokens are kept.
    const words = new Markdown({ html: true });
    // Link targets are never shown here: every link, refused or not, is its text.
    words.validateLink = () => true;
    plain = textOf(words);
  });
  return loading;
}

/** The words of a markdown text, on one line: markup, HTML and link targets left out. */
function textOf(md: MarkdownIt): (text: string) => string {
  return (text) => {
    const words: string[] = [];
    for (const block of md.parse(text, {})) {
      for (const token of block.children ?? []) {
        if (token.type === 'text' || token.type === 'code_inline') words.push(token.content);
        else if (token.type === 'softbreak' || token.type === 'hardbreak') words.push(' ');
      }
      if (block.type === 'fence' || block.type === 'code_block') words.push(block.content);
      if (block.block && block.nesting !== 1) words.push(' ');
    }
    return words.join('').replace(/\s+/g, ' ').trim();
  };
}

/**
 * A description as a line or two of plain text (a search result's summary): its words without
 * markup, set as text, never as HTML. Until markdown-it is loaded, the text shows as it is.
 */
export function MarkdownLine({ text, max, class: className }: { text: string; max: number; class?: string }) {
  const [, setLoaded] = useState(plain !== undefined);
  useEffect(() => {
    if (!plain) void load().then(() => setLoaded(true));
  }, []);
  const words = plain ? plain(text) : text;
  if (!words) return null;
  return <p class={className}>{words.length > max ? `${words.slice(0, max)}…` : words}</p>;
}

export function Markdown({ text, class: className }: { text: string; class?: string }) {
  const [, setLoaded] = useState(render !== undefined);
  useEffect(() => {
    if (!render) void load().then(() => setLoaded(true));
  }, []);
  const classes = `markdown ${className ?? ''}`.trim();
  if (!render) {
    return (
      <div class={classes}>
        <p class="markdown-pending">{text}</p>
      </div>
    );
  }
  // markdown-it escapes everything it does not itself produce (html: false), so its output is safe to insert.
  return <div class={classes} dangerouslySetInnerHTML={{ __html: render(text) }} />;
}
