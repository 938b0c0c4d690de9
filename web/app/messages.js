// What to tell a person when something goes wrong, in plain words and with what to do, from
// the error codes of the worker and of wasm/attend.mjs (AttendError.code). The engine's own
// message is for a bug report, not for reading: the page shows it under "Technical details".

// model: {name, fromFile: the user's own file (not a download), offline: the browser is offline}.
export function loadErrorMessage(error, { name, fromFile, offline }) {
  switch (error.code) {
    case 'invalid_model':
      return fromFile
        ? `"${name}" cannot be used: it is not an Attend model file, or it is damaged (cut short or changed). `
          + 'Choose a model file made for Attend (.safetensors), or one of the models in the list.'
        : `The model "${name}" that was downloaded cannot be used: the file on the server is damaged or `
          + 'is not an Attend model. Choose another model.';
    case 'out_of_memory':
      return `The model "${name}" does not fit in the memory this browser gives the page. `
        + 'Close other tabs and try again, or choose a smaller model.';
    case 'worker':
      return 'The translator could not start in this browser. Reload the page; if that does not help, '
        + 'use an up-to-date Chrome, Edge, Firefox or Safari.';
    default:
      return offline
        ? `You are offline, and the model "${name}" has not been used on this device before: only models `
          + 'marked "works offline" in the list can be used without a connection. Connect and try again.'
        : `Could not download the model "${name}". Check the connection and try again, or choose a model `
          + 'file from this device.';
  }
}

// A Marian model folder (or its files) that could not be imported: the importer's own words say
// what is missing or what the model is that Attend does not run (the same as `attend import`'s),
// then what to do.
export function importErrorMessage(error, { name }) {
  const why = String(error.message ?? '').replace(/\.?$/, '.');
  switch (error.code) {
    case 'invalid_argument':
      return `"${name}" cannot be imported: ${why} Choose the model's whole folder, or all of its files `
        + '(the model, its vocabulary and, if it has one, its shortlist).';
    case 'invalid_model':
      return `"${name}" cannot be imported: ${why} Attend runs Marian's transformer models, such as Firefox Translations' `
        + 'and OPUS-MT\'s; a file that is damaged or cut short is refused too.';
    case 'io':
      return `"${name}" could not be read: ${why} Choose the folder again, or unpack the files first.`;
    case 'out_of_memory':
      return `"${name}" does not fit in the memory this browser gives the page. Close other tabs and try again.`;
    case 'worker':
      return loadErrorMessage(error, { name });
    default:
      return `"${name}" could not be imported: ${why}`;
  }
}

export function translateErrorMessage(error) {
  switch (error.code) {
    case 'invalid_input':
      return `This text cannot be translated: ${error.message}`;
    case 'empty_input':
      return 'There is nothing to translate: the text is only spaces or invisible characters.';
    case 'out_of_memory':
      return 'The translation ran out of memory. Try a shorter text or a smaller beam size.';
    default:
      return `The translation failed (${error.message}). Edit the text to try again.`;
  }
}
