// The one quoting rule, shared with the harness-export writer's resume commands.
export { shellWord } from '@strand/import/harness-export';
