export {
  SUBAGENT_DESCRIPTOR_EVENT,
  SUBAGENT_DESCRIPTOR_VERSION,
  parseSubagentDescriptor,
  descriptorEvent,
  DescriptorWriteError,
  type SubagentDescriptor,
  type DescriptorParse,
} from './descriptor.js';
