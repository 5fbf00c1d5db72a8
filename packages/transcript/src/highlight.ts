import hljs from 'highlight.js/lib/common';
import type { CodeHighlighter } from './markdown-html.js';

/**
 * highlight.js with its common languages (about 150 KB minified), as a `CodeHighlighter`. A
 * subpath of its own (`@strand/transcript/highlight`), never re-exported by the index: the web
 * imports it on demand, the first time a message shows a fenced block with a language.
 */
export const highlightCode: CodeHighlighter = (code, language) =>
  hljs.getLanguage(language) === undefined
    ? undefined
    : hljs.highlight(code, { language, ignoreIllegals: true }).value;
