/** Fresh process for the peak-RSS figure: inspect one session, print maxRSS (bytes) as JSON. */
import { SessionId } from '@strand/session';
import { openBackend } from './backends.js';

const [backend, root, id] = process.argv.slice(2) as [string, string, string];
const persistence = await openBackend(backend, root);
const log = await persistence.inspect(SessionId(id));
console.log(
  JSON.stringify({ events: log.events.length, maxRssBytes: process.resourceUsage().maxRSS * 1024 }),
);
await persistence.close();
