export { describeWireSuite, type WireHost } from './wire-suite.js';
