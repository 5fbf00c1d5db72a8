export { grantStoreContract, type GrantStoreEngine } from './grant-store-contract.js';
