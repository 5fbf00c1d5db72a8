/**
 * The HTML export's whole style, inlined in the file: readable on screen and in print, light and
 * dark by the reader's preference, and highlight.js's token colours (GitHub's, as the web uses)
 * since a file may load nothing.
 */
export const HTML_EXPORT_STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa;
  --border: #d1d9e0; --user: #ddf4ff; --accent: #0969da; --error: #d1242f; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117;
  --panel: #151b23; --border: #3d444d; --user: #0c2d6b; --accent: #4493f8; --error: #f85149; } }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; }
main, header, footer { max-width: 920px; margin: 0 auto; padding: 0 20px; }
header { padding-top: 28px; }
h1 { font-size: 26px; margin: 0 0 14px; line-height: 1.25; overflow-wrap: anywhere; }
table.facts { border-collapse: collapse; font-size: 13px; margin-bottom: 8px; }
table.facts th { text-align: left; color: var(--muted); font-weight: 500; padding: 2px 14px 2px 0; vertical-align: top; }
table.facts td { padding: 2px 0; overflow-wrap: anywhere; }
h2.turn { font-size: 13px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted);
  border-top: 1px solid var(--border); padding-top: 18px; margin: 30px 0 12px; }
h2.turn time { text-transform: none; letter-spacing: 0; font-weight: 400; margin-left: 8px; }
.msg { border: 1px solid var(--border); border-radius: 10px; padding: 10px 14px; margin: 10px 0; }
.msg-user { background: var(--user); border-color: transparent; }
.who { font-size: 12px; font-weight: 600; color: var(--muted); margin-bottom: 4px; }
.body > :first-child { margin-top: 0; } .body > :last-child { margin-bottom: 0; }
.body img { max-width: 100%; border-radius: 6px; border: 1px solid var(--border); }
code { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
:not(pre) > code { background: var(--panel); padding: 1px 5px; border-radius: 5px; }
pre { background: var(--panel); border: 1px solid var(--border); border-radius: 8px; padding: 10px 12px;
  overflow-x: auto; white-space: pre-wrap; overflow-wrap: anywhere; margin: 6px 0; }
.strand-code { margin: 8px 0; } .strand-code pre { margin: 0; border-top-left-radius: 0; border-top-right-radius: 0; }
.strand-code-bar { font-size: 12px; color: var(--muted); background: var(--panel); border: 1px solid var(--border);
  border-bottom: 0; border-radius: 8px 8px 0 0; padding: 3px 12px; }
details.tool, details.unknown { border: 1px solid var(--border); border-radius: 8px; margin: 8px 0; background: var(--bg); }
details.tool > summary, details.unknown > summary { cursor: pointer; padding: 7px 12px; font-size: 13px; }
.tool-name { font-weight: 600; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.tool-args { color: var(--muted); margin-left: 6px; }
.tool-body { padding: 0 12px 10px; }
.label { font-size: 12px; color: var(--muted); margin-top: 8px; }
.failed { color: var(--error); font-weight: 600; margin-left: 6px; }
.quiet { color: var(--muted); font-size: 13px; margin: 6px 0; }
.turn-end { color: var(--error); font-size: 13px; }
.command code.line { font-weight: 600; }
.strand-link, .image-ref { color: var(--accent); overflow-wrap: anywhere; }
footer { color: var(--muted); font-size: 12px; padding: 30px 20px 40px; }
table { border-collapse: collapse; } .body table td, .body table th { border: 1px solid var(--border); padding: 4px 8px; }
blockquote { margin: 6px 0; padding-left: 12px; border-left: 3px solid var(--border); color: var(--muted); }
@media print { details.tool, details.unknown { break-inside: avoid; } }
.hljs-doctag, .hljs-keyword, .hljs-meta .hljs-keyword, .hljs-template-tag, .hljs-template-variable, .hljs-type,
.hljs-variable.language_ { color: #d73a49; }
.hljs-title, .hljs-title.class_, .hljs-title.function_ { color: #6f42c1; }
.hljs-attr, .hljs-attribute, .hljs-literal, .hljs-meta, .hljs-number, .hljs-operator, .hljs-variable,
.hljs-selector-attr, .hljs-selector-class, .hljs-selector-id { color: #005cc5; }
.hljs-regexp, .hljs-string, .hljs-meta .hljs-string { color: #032f62; }
.hljs-built_in, .hljs-symbol { color: #e36209; }
.hljs-comment, .hljs-code, .hljs-formula { color: #6a737d; }
.hljs-name, .hljs-quote, .hljs-selector-tag, .hljs-selector-pseudo { color: #22863a; }
@media (prefers-color-scheme: dark) {
  .hljs-doctag, .hljs-keyword, .hljs-meta .hljs-keyword, .hljs-template-tag, .hljs-template-variable, .hljs-type,
  .hljs-variable.language_ { color: #ff7b72; }
  .hljs-title, .hljs-title.class_, .hljs-title.function_ { color: #d2a8ff; }
  .hljs-attr, .hljs-attribute, .hljs-literal, .hljs-meta, .hljs-number, .hljs-operator, .hljs-variable,
  .hljs-selector-attr, .hljs-selector-class, .hljs-selector-id { color: #79c0ff; }
  .hljs-regexp, .hljs-string, .hljs-meta .hljs-string { color: #a5d6ff; }
  .hljs-built_in, .hljs-symbol { color: #ffa657; }
  .hljs-comment, .hljs-code, .hljs-formula { color: #8b949e; }
  .hljs-name, .hljs-quote, .hljs-selector-tag, .hljs-selector-pseudo { color: #7ee787; }
}
`;
