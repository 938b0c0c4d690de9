// What to tell a person when something goes wrong, from the error codes of the worker and
// of wasm/attend.mjs (AttendError.code).

export function loadErrorMessage(error, modelName) {
  switch (error.code) {
    case 'invalid_model':
      return `The model "${modelName}" is damaged or is not an Attend model file (${error.message}). `
        + 'Download it again or choose another file.';
    case 'out_of_memory':
      return `The model "${modelName}" does not fit in this browser's memory (${error.message}).`;
    case 'worker':
      return `The translator could not start in this browser (${error.message}).`;
    default:
      return `Could not download the model "${modelName}" (${error.message}). `
        + 'Check the connection and try again, or choose a model file from this device.';
  }
}

export function translateErrorMessage(error) {
  switch (error.code) {
    case 'invalid_input':
      return `This text cannot be translated: ${error.message}`;
    case 'empty_input':
      return 'There is nothing to translate: the text is only spaces or invisible characters.';
    case 'out_of_memory':
      return `The translation ran out of memory (${error.message}). Try a shorter text or a smaller beam.`;
    default:
      return `Translation failed: ${error.message}`;
  }
}
