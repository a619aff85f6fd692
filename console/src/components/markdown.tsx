import MarkdownIt from 'markdown-it';

/**
 * Markdown as DataHub's descriptions are written, rendered safely: markdown-it with raw HTML off
 * (any markup typed is shown as text), and its link check, which refuses `javascript:`,
 * `vbscript:`, `file:` and `data:` URLs; images are not rendered. Links open in a new tab without
 * handing it this page (`noopener`).
 */
const md = new MarkdownIt({ html: false, linkify: true, breaks: true });
// No images: a description could otherwise make every reader's browser fetch a URL of its choosing.
md.disable('image');
const defaultLink = md.renderer.rules.link_open ?? ((tokens, i, options, _env, self) => self.renderToken(tokens, i, options));
md.renderer.rules.link_open = (tokens, i, options, env, self) => {
  tokens[i].attrSet('target', '_blank');
  tokens[i].attrSet('rel', 'noopener noreferrer');
  return defaultLink(tokens, i, options, env, self);
};

export function renderMarkdown(text: string): string {
  return md.render(text);
}

export function Markdown({ text, class: className }: { text: string; class?: string }) {
  // markdown-it escapes everything it does not itself produce (html: false), so its output is safe to insert.
  return <div class={`markdown ${className ?? ''}`.trim()} dangerouslySetInnerHTML={{ __html: renderMarkdown(text) }} />;
}
