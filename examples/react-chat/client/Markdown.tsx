// Model text as Markdown, with react-markdown: it builds React elements from the Markdown syntax
// tree and never parses HTML, and its default URL transform drops `javascript:` and other unsafe
// link targets. Raw HTML in the text is shown as the text it is (`htmlAsText`), as the rest of
// the page shows model output, instead of being dropped.
import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';

const components: Components = {
  // Links open in a new tab and pass nothing on to the page they open.
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer nofollow">
      {children}
    </a>
  ),
};

interface Node {
  type: string;
  value?: string;
  children?: Node[];
}

/** A remark plugin: every raw HTML node of the Markdown tree becomes a text node (escaped by React). */
function htmlAsText() {
  const visit = (node: Node): void => {
    if (node.type === 'html') node.type = 'text';
    for (const child of node.children ?? []) visit(child);
  };
  return (tree: Node) => visit(tree);
}

const plugins = [htmlAsText];

/** Markdown rendered safely; the same text renders the same elements. */
export const Markdown = memo(function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown components={components} remarkPlugins={plugins}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
