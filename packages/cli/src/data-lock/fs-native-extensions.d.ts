// `fs-native-extensions` has no type declarations; os-file-lock.ts types the part it uses.
declare module 'fs-native-extensions' {
  const native: unknown;
  export default native;
}
