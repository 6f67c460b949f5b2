/**
 * Jest runs CommonJS in a vm context without `import()` (that needs --experimental-vm-modules).
 * The OTLP exporter loads Node's `http`/`https` with `import()`; this rewrites those calls in its
 * compiled files to `require`, which is what Node itself resolves them to.
 */
module.exports = {
  process(sourceText) {
    return { code: sourceText.replace(/\bimport\((['"])(https?)\1\)/g, 'Promise.resolve(require($1$2$1))') };
  },
};
