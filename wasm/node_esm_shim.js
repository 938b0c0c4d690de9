// Emscripten 3.1.6's glue reads CommonJS's __dirname in its Node branch, which an ES module
// does not have (ReferenceError at load). attend.mjs hands the glue the compiled module
// itself (instantiateWasm), so the glue never reads a file and an empty directory will do.
var __dirname = '';
