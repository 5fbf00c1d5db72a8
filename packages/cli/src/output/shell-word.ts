// The one quoting rule, shared with the harness-export writer's resume commands. Taken from its
// own subpath, not `@strand/import/harness-export`: that index loads every export renderer
// (Markdown, highlight.js), which would cost every `strand list` ~50 ms of start-up.
export { shellWord } from '@strand/import/shell-word';
