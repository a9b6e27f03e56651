// class-transformer keeps its decorator metadata in this module but declares its types elsewhere.
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
