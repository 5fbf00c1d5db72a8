export { hostFixture, turn, RpcTestClient, type HostFixture } from './host-fixture.js';
