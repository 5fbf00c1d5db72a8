export { hostFixture, turn, RpcTestClient, type HostFixture } from './host-fixture.js';
export { startTestHost, type TestHost, type TestHostOptions } from './test-host.js';
