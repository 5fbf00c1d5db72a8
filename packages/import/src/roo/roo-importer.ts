import { taskFolderImporter } from '../cline/task-importer.js';

/** Roo Code (VS Code extension `rooveterinaryinc.roo-cline`): Cline's task folders, Roo's additions. */
export const rooImporter = taskFolderImporter('roo', 'rooveterinaryinc.roo-cline');
