import type MarkdownIt from 'markdown-it';
import { useEffect, useState } from 'preact/hooks';

/**
 * Markdown as DataHub's descriptions are written, rendered safely: markdown-it with raw HTML off
 * (any markup typed is shown as text), and its link check, which refuses `javascript:`,
 * `vbscript:`, `file:` and `data:` URLs; images are not rendered. Links open in a new tab without
 * handing it this page (`noopener`). markdown-it (50 KB gzipped with its entity table) is loaded
 * the first time a description is shown, not with the console; until then the text shows as is.
 */
let render: ((text: string) => string) | undefined;
let loading: Promise<unknown> | undefined;

function configured(md: MarkdownIt): (text: string) => string {
  // No images: a description could otherwise make every reader's browser fetch a URL of its choosing.
  md.disable('image');
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
  });
  return loading;
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
