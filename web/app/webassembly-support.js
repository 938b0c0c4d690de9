// Whether this browser can run the translator: WebAssembly, module workers.
const EMPTY_MODULE = new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

export function unsupportedReason() {
  if (typeof WebAssembly !== 'object' || !WebAssembly.validate?.(EMPTY_MODULE)) {
    return 'This browser cannot run WebAssembly, which the translator needs. '
      + 'Use a current Chrome, Edge, Firefox or Safari, with WebAssembly enabled.';
  }
  if (typeof Worker !== 'function') return 'This browser cannot run Web Workers, which the translator needs.';
  return null;
}
