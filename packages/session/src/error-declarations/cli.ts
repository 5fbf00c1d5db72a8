import { defineErrors } from '../define-errors.js';

/**
 * The CLI's own codes, across its parts: the MCP server, the data-folder lock, remote hosts,
 * `strand acp`, `strand serve`. Failures of other packages keep their codes.
 */
export const CLI_ERRORS = defineErrors('cli', {
  /** Tool arguments the schema accepts but that do not fit together (a seq range backwards). */
  CLI_MCP_ARGUMENTS_INVALID: {
    meaning: 'MCP tool arguments that do not fit together (a seq range backwards).',
  },
  /** `--data` names no folder: refused at start, so a typo never serves an empty corpus. */
  CLI_MCP_DATA_FOLDER_MISSING: { meaning: '`--data` names no folder.' },
  CLI_DATA_FOLDER_LOCKED: { meaning: 'Another live process writes this data folder.' },
  CLI_DATA_FOLDER_LOCK_FAILED: {
    meaning: 'The data folder lock could not be taken (permissions, no locks).',
  },
  CLI_HOLDING_HOST_UNAUTHORIZED: { meaning: "The host holding the folder refused the read command's token." },
  CLI_HOLDING_HOST_UNREACHABLE: { meaning: 'The host holding the folder does not accept connections.' },
  CLI_HOST_UNREACHABLE: { meaning: 'No host answers at `--url`.' },
  CLI_HOST_UNAUTHORIZED: { meaning: 'The host at `--url` refused the token.' },
  /** `session/prompt`, `session/set_mode`… on a session this connection never created or loaded. */
  CLI_ACP_SESSION_NOT_OPEN: { meaning: 'An ACP call on a session this connection never created or loaded.' },
  /** A second `session/prompt` while one is running on the same session. */
  CLI_ACP_PROMPT_RUNNING: { meaning: 'An ACP prompt while one runs on the session.' },
  /** The prompt holds nothing Strand can send as text (only images or audio). */
  CLI_ACP_PROMPT_EMPTY: { meaning: 'An ACP prompt with no text Strand can send.' },
  /** `session/set_config_option` with an option or value the host's catalog does not offer. */
  CLI_ACP_CONFIG_INVALID: { meaning: 'An ACP config option or value the host catalog does not offer.' },
  /** The turn ended with `error` (or `interrupted`): not a stop reason ACP names. */
  CLI_ACP_TURN_FAILED: { meaning: 'The ACP turn ended in error or was interrupted.' },
  /** The connection to the host was lost while a prompt's turn ran: its outcome is unknown. */
  CLI_ACP_HOST_LOST: { meaning: 'The host connection was lost while an ACP turn ran.' },
  /** A failure that carried no stable code of its own (reported in `data.code`). */
  CLI_ACP_FAILED: { meaning: 'An ACP failure that carried no stable code.' },
  /** `strand serve --port N` while another process listens there: refused before the folder is touched. */
  CLI_SERVE_PORT_IN_USE: { meaning: 'Another process listens on the port `strand serve` was given.' },
  /** `strand share` with no running host to ask: grants are made, listed and revoked by a host. */
  CLI_SHARE_NEEDS_HOST: {
    meaning: '`strand share` found no running host (none holds the data folder, and no `--url`).',
  },
  /** `strand export --to <harness>` onto a file the harness has continued, or Strand did not write. */
  CLI_EXPORT_TARGET_NOT_OURS: {
    meaning:
      "The harness transcript `strand export --to` would write is not Strand's last export of the session.",
  },
});
