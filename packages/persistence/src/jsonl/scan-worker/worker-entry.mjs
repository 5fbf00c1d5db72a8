// The scan worker's entry point. Strand runs its TypeScript source directly, so the worker
// registers the same loader the main process uses (tsx) before loading its TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./worker-main.ts');
