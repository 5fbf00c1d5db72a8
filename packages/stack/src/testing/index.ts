export { openTempStack, type TempStack, type TempStackOptions } from './temp-stack.js';
