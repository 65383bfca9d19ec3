/** class-transformer keeps its metadata storage in an untyped CommonJS path; its types live apart. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
