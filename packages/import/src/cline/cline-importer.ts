import { taskFolderImporter } from './task-importer.js';

/** Cline (VS Code extension `saoudrizwan.claude-dev`); its CLI and JetBrains hosts use `~/.cline/data`. */
export const clineImporter = taskFolderImporter('cline', 'saoudrizwan.claude-dev');
