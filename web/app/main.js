// Wires the page: the chosen model loads in the worker (progress, errors); typing asks for
// a translation of the newest text after a pause (older requests are superseded): a text of
// any length, translated sentence by sentence with progress and a Stop button; each result
// updates the translation, the timings and the attention views (of its only sentence, or of
// the sentence chosen in the translation); masking heads re-translates and compares with the
// unmasked translation.
import { AblationView } from './ablation-view.js';
import { AttentionPanel } from './attention-panel.js';
import { DocumentView } from './document-view.js';
import { forgetImportedModel, keepImportedModel, languagePairName, languageTags } from './imported-models.js';
import { asksForLanguages, ImportLanguagesForm, offersMultilingual, refusalText } from './import-languages.js';
import { importErrorMessage, loadErrorMessage, translateErrorMessage } from './messages.js';
import { showModelLanguages } from './model-languages.js';
import { ModelPicker } from './model-picker.js';
import { ProgressBar } from './progress-bar.js';
import { registerServiceWorker } from './service-worker-registration.js';
import { TargetLanguageField } from './target-language.js';
import { unsupportedReason } from './webassembly-support.js';
import { TranslationWorker } from './worker-client.js';

const TYPING_PAUSE_MS = 250;
const MAX_BEAM = 8;

const byId = (id) => document.getElementById(id);
const sourceText = byId('source-text');
const beamInput = byId('beam');
const alphaInput = byId('alpha');
const captionRulesInput = byId('caption-rules');
const translationOutput = byId('translation');
const timingOutput = byId('timing');
const inputMessage = byId('input-message');
const modelStatus = byId('model-status');
const modelDetails = byId('model-details');
const modelRetry = byId('model-retry');
const rerankNote = byId('rerank-note');
const modelLicense = byId('model-license');
const modelForget = byId('model-forget');
// The languages of a Marian import that cannot tell them, asked in place.
const languagesForm = new ImportLanguagesForm(byId('import-languages'), { leaveFocusTo: byId('model-select') });
// A multilingual model's target language (its >>xxx<< tokens), hidden for other models.
const targetLanguage = new TargetLanguageField({ container: byId('target-language-field'), select: byId('target-language') });
// The length penalty slider overrides the model's own (info().search.alpha, an OPUS-MT decoder.yml's
// normalize) only once the person moves it; until then translate() is given none.
let alphaMoved = false;
// Load errors that the same download would meet again; the others offer "Try again".
const FINAL_LOAD_ERRORS = new Set(['invalid_model', 'out_of_memory', 'worker']);

function showFatal(message) {
  byId('fatal').textContent = message;
  byId('fatal').hidden = false;
  for (const control of document.querySelectorAll('select, input, textarea, button')) control.disabled = true;
}

// technical: the engine's message behind an error, shown under "Technical details".
function setModelStatus(state, message, technical = '') {
  document.body.dataset.model = state;  // loading | ready | error | asking (an import asks for its languages)
  modelStatus.textContent = message;
  modelStatus.classList.toggle('error', state === 'error');
  byId('model-error-technical').textContent = technical;
  byId('model-error-details').hidden = !technical;
}

// "6 + 6 layers, 8 heads, 44M parameters (int8 weights and activations: …), WebAssembly SIMD (…)"
// from Translator.info(), the jargon glossed in plain words; for an ensemble "2 models deciding
// together, 5.8M parameters in all (…), the first with 4 + 4 layers and 4 heads, …"; with a reverse
// model "…; a model of the other direction chooses among the candidates".
const DTYPE_GLOSS = { int8: 'numbers kept as 8-bit integers, 4× smaller and faster than 32-bit floats', f32: '32-bit floating-point numbers' };
function describeModel({ config, dtype, int8Activations, members, parameterCount, simd, reverse }) {
  const parameters = new Intl.NumberFormat('en', { notation: 'compact' }).format(parameterCount);
  const arithmetic = `${int8Activations ? 'int8 weights and activations' : dtype}${DTYPE_GLOSS[dtype] ? `: ${DTYPE_GLOSS[dtype]}` : ''}`;
  const shape = `${config.encoderLayers} + ${config.decoderLayers} layers`;
  const build = simd ? 'WebAssembly SIMD (several numbers per instruction)' : 'scalar WebAssembly';
  const reranked = reverse ? '; a model of the other direction chooses among the candidates' : '';
  if (members > 1) {
    return `${members} models deciding together, ${parameters} parameters in all (${arithmetic}), `
      + `the first with ${shape} and ${config.numHeads} heads, ${build}${reranked}`;
  }
  return `${shape}, ${config.numHeads} heads, ${parameters} parameters (${arithmetic}), ${build}${reranked}`;
}

// An imported model's licence, as the folder gave it (attend.license), or that it gave none.
function showLicense(imported) {
  modelLicense.hidden = !imported;
  if (!imported) return;
  const files = imported.files?.licenses?.map((path) => path.slice(path.lastIndexOf('/') + 1)) ?? [];
  byId('model-license-summary').textContent = files.length > 0 ? `Licence (${files.join(', ')}, as the folder gave it)`
    : 'Licence: none came with the model';
  byId('model-license-text').textContent = files.length > 0 ? imported.license
    : 'The folder held no LICENSE or README file. Check the licence where the model came from before you use or share its translations.';
}

// A language code's English name ("de" → "German").
function languageName(code) {
  try {
    return new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
}

// The slider at `value` (the model's own, or where the person moved it), shown as a number: the
// model's 0.65 as 0.65, though the slider's steps put its knob at 0.7.
function showAlpha(value = Number(alphaInput.value)) {
  if (value !== Number(alphaInput.value)) alphaInput.value = String(value);
  const text = String(Number(value.toFixed(3)));
  byId('alpha-value').value = text.includes('.') ? text : value.toFixed(1);
}

// The translation tagged with the chosen target language of a multilingual model (its lang).
function showTargetLanguage() {
  const tag = targetLanguage.languageTag;
  if (tag) translationOutput.lang = tag;
}

function showInputMessage(message) {
  inputMessage.textContent = message ?? '';
  inputMessage.hidden = !message;
}

// sourceText: what `text` translates; data-source and data-shown (a count) are for tests.
function showTranslation(sourceText, text, timing) {
  const shown = Number(translationOutput.dataset.shown ?? 0) + 1;
  Object.assign(translationOutput.dataset, { source: sourceText, text, shown });
  if (!timing) {
    timingOutput.textContent = '';
    return;
  }
  const { milliseconds, tokens } = timing;
  const tokensPerSecond = (tokens / Math.max(milliseconds, 0.001)) * 1000;
  timingOutput.textContent = `${milliseconds.toFixed(0)} ms · ${tokens} tokens · ${tokensPerSecond.toFixed(0)} tokens/s`;
  Object.assign(timingOutput.dataset, { milliseconds, tokens });
}

// Whether the text box holds HTML: an element with its end tag ("<p>…</p>", "<b>snow</b>") or a
// line break tag. Plain text with a "<" ("3 < 5", "I <3 you") is not.
const looksLikeHtml = (text) => /<([a-z][a-z0-9-]*)\b[^<>]*>[\s\S]*<\/\1\s*>|<br\s*\/?>/i.test(text);

// The beam the field asks for, brought into 1..MAX_BEAM.
const beamUsed = () => Math.min(MAX_BEAM, Math.max(1, Math.round(Number(beamInput.value)) || 1));

// reverse: the model in use's reverse model (the better quality's reranking), or null. Greedy
// search has one candidate, nothing to rerank: beam 1 translates without it (see showRerankNote).
function translationOptions(maskedHeads, reverse) {
  const options = { beam: beamUsed(), maskedHeads, attention: true, captionRules: captionRulesInput.checked };
  if (alphaMoved) options.alpha = Number(alphaInput.value);
  if (targetLanguage.token) options.targetToken = targetLanguage.token;
  return reverse && options.beam === 1 ? { ...options, rerank: false } : options;
}

// With a reverse model and beam 1, the page says that the reranking is not used (a live region:
// its text is set only when it changes, so each translation does not announce it again).
function showRerankNote(reverse) {
  rerankNote.hidden = !reverse || beamUsed() > 1;
  const note = rerankNote.hidden ? ''
    : `Beam size 1 translates without the better quality's reranking: the ${reverse.name} model chooses among candidates only with a beam size of 2 or more.`;
  if (rerankNote.textContent !== note) rerankNote.textContent = note;
}

function startTranslator() {
  const worker = new TranslationWorker();
  const progress = new ProgressBar({ container: byId('download'), bar: byId('download-progress'), text: byId('download-text') });
  const ablation = new AblationView({ container: byId('ablation') });
  const panel = new AttentionPanel({ onMasksChanged: () => translateNow() });
  const sentenceHint = byId('sentence-hint');
  const noAttention = byId('no-attention');
  const documentView = new DocumentView({
    output: translationOutput,
    summary: byId('doubt-summary'),
    progress: { container: byId('document-progress'), bar: byId('document-progress-bar'), text: byId('document-progress-text') },
    onChoose: (index, sentence) => showSentenceAttention(sentence),
    reason: byId('doubt-reason'),
  });
  // Text CLD2 finds in another language than the model in use reads: said plainly, with the listed
  // model that reads it (the one back into the language the model in use reads, where there is one).
  const languageNote = byId('language-note');
  const languageSwitch = byId('language-switch');
  let switchTo = null;
  languageSwitch.addEventListener('click', () => {
    if (!switchTo) return;
    byId('model-select').focus();  // the button hides
    picker.choose(switchTo);
  });
  function showOtherLanguage(found) {
    languageNote.hidden = !found;
    languageNote.dataset.language = found?.language ?? '';
    if (!found) return;
    const reads = modelInUse?.languages?.source;
    const readsName = reads ? languageName(reads) : 'the language it reads';
    const readers = picker.modelsReading(found.language);
    const best = readers.find((model) => model.target === reads) ?? readers[0];
    switchTo = best?.value ?? null;
    byId('language-note-text').textContent = `This text is in ${found.name} (${found.percent}% of its letters, as the language detector CLD2 reads them), not ${readsName}, the language the ${modelInUse.name} model reads: its translation will be nonsense.`
      + (best ? '' : ` None of the models here reads ${found.name}.`);
    languageSwitch.hidden = !best;
    languageSwitch.textContent = best ? `Translate it with ${best.name}` : '';
  }

  // Copying the translation: its plain text, and for HTML put in, the translated markup too (as HTML
  // for editors that take it, and as code with "Copy HTML code"); the status says what was copied.
  const copyButton = byId('copy-translation');
  const copyHtmlButton = byId('copy-html');
  const copyStatus = byId('copy-status');
  let copyable = null;  // {text, html?}
  function setCopyable(copy) {
    copyable = copy?.text ? copy : null;
    copyButton.hidden = !copyable;
    copyHtmlButton.hidden = !copyable?.html;
    copyStatus.textContent = '';
  }
  async function copyTranslation(asCode) {
    if (!copyable) return;
    const { text, html } = copyable;
    try {
      if (asCode) {
        await navigator.clipboard.writeText(html);
      } else if (html && typeof ClipboardItem === 'function') {
        await navigator.clipboard.write([new ClipboardItem({
          'text/plain': new Blob([text], { type: 'text/plain' }), 'text/html': new Blob([html], { type: 'text/html' }),
        })]);
      } else {
        await navigator.clipboard.writeText(text);
      }
      copyStatus.textContent = asCode ? 'Copied the translated HTML code.'
        : `Copied the translation${html ? ' (as text, and as HTML where you paste into an editor that takes it)' : ''}.`;
    } catch {
      copyStatus.textContent = 'This browser did not let the page copy: select the translation and copy it with Ctrl+C (⌘C).';
    }
  }
  copyButton.addEventListener('click', () => copyTranslation(false));
  copyHtmlButton.addEventListener('click', () => copyTranslation(true));

  // Stop keeps the sentences translated so far and says how many are left.
  const stoppedNote = byId('document-stopped');
  byId('document-stop').addEventListener('click', () => {
    worker.cancel();
    document.body.dataset.translating = 'false';
    panel.hideLive();
    const { done, sentences } = documentView.stop();
    const left = sentences - done;
    stoppedNote.textContent = done > 0
      ? `Stopped: ${done.toLocaleString('en')} of ${sentences.toLocaleString('en')} sentences translated, ${left.toLocaleString('en')} left untranslated. Edit the text to translate it again.`
      : 'Stopped before any sentence was translated. Edit the text to translate it again.';
    stoppedNote.hidden = false;
    sentenceHint.hidden = done < 2;
    setCopyable(done > 0 ? { text: documentView.partialText } : null);
    if (done === 0) {
      showTranslation('', '', null);
      panel.hide();
    }
  });
  let modelReady = false;
  let typingTimer = 0;
  let retryLoad = null;  // loads the model whose download failed, again
  let modelInUse = null;  // {name, languages, choice, reverse, imported} of the model the worker translates with
  let choices = 0;  // counts the models asked for, so an import that ends after another choice is not loaded
  modelRetry.addEventListener('click', () => {
    byId('model-select').focus();  // the button hides
    retryLoad?.();
  });

  // Nothing to translate now: the request in flight, if any, must not land later.
  function clearTranslation() {
    worker.cancel();
    document.body.dataset.translating = 'false';
    documentView.clear();
    stoppedNote.hidden = true;
    showOtherLanguage(null);
    setCopyable(null);
    sentenceHint.hidden = true;
    noAttention.hidden = true;
    showTranslation('', '', null);
    panel.hide();
    ablation.clear();
  }

  // The attention section for a sentence's translation, or why it has none: the model did not
  // run on a set phrase, on a sentence of spans alone, or on a script it cannot read.
  function showAttention(source, result) {
    noAttention.hidden = Boolean(result.attention);
    if (result.attention) return panel.show(source, result);
    panel.hide();
    noAttention.textContent = {
      set_phrase: `“${source}” is a set phrase (a greeting, a letter’s formula or a label): it was written from Attend’s table of set phrases, not by the model, so there is no attention to show.`,
      passed_through: `Every word of “${source}” is one the model is not shown (numbers, names, web addresses): the translation holds them without the model, so there is no attention to show.`,
      unreadable_script: `The model cannot read the script of “${source}”, so it did not run: there is no attention to show.`,
    }[result.status] ?? `The model did not run on “${source}”: there is no attention to show.`;
  }

  // The attention of one sentence of a longer text: translated again on its own, with attention.
  async function showSentenceAttention({ source }) {
    try {
      const { result } = await worker.translate(source, translationOptions(panel.maskedHeads, modelInUse?.reverse));
      showAttention(source, result);
    } catch (error) {
      if (error.code !== 'superseded') showInputMessage(translateErrorMessage(error));
    }
  }

  // The model in use (if any) stays, with its translation, until the new one is ready; if the
  // new one fails to load, it stays in use (the worker keeps it) and the list shows it again.
  // imported: the description of an imported model (imported-models.js), whose licence is shown.
  async function loadModel({ name, source, weights = null, languages, choice, reverse = null, imported = null }) {
    choices += 1;
    languagesForm.close();  // an import's question, if one was asked, is passed over
    modelReady = false;
    showModelLanguages({ sourceText, translation: translationOutput }, languages);
    modelRetry.hidden = true;
    setModelStatus('loading', `Loading ${name}…`);
    progress.update({ loaded: 0, total: 0 });
    try {
      const info = await worker.load(source, {
        onProgress: (update) => progress.update(update), weights, reverse: reverse?.url, reverseWeight: reverse?.weight,
      });
      progress.hide();
      clearTranslation();  // the shown translation was the previous model's
      panel.clearMasks();  // its heads, which this model may not have
      // A file of one's own is described as the shipped models are: its languages (from the file's
      // attend.languages, which also tag the text box), its size, and below, its architecture.
      const ownFile = choice?.model === 'file' && !imported;
      const fileName = name;
      const named = languages ?? (info.sourceLanguage ? { source: info.sourceLanguage, target: info.targetLanguage } : undefined);
      if (ownFile) {
        showModelLanguages({ sourceText, translation: translationOutput }, named);
        const pair = named ? languagePairName(`${named.source}-${named.target}`) : 'A model that names no languages';
        name = `${pair} (${name}, ${(info.fileBytes / 1e6).toFixed(1)} MB)`;
      }
      modelInUse = { name, languages: named, choice, reverse, imported };
      picker.setInUse(choice);
      modelReady = true;
      setModelStatus('ready', `${name} is ready.`);
      const from = imported ? `; imported in this browser from ${imported.files.model.slice(imported.files.model.lastIndexOf('/') + 1)}` : '';
      modelDetails.textContent = describeModel(info) + from;
      showLicense(imported);
      modelForget.hidden = !imported?.id;
      panel.setDecoderAutoreg(info.config.decoderAutoreg);
      captionRulesInput.checked = info.asksForCaptionRules;  // as the file asks, until the person says otherwise
      // The beam the file asks for (an OPUS-MT decoder.yml's beam-size), until the person says otherwise.
      if (info.search?.beam) beamInput.value = Math.min(MAX_BEAM, info.search.beam);
      // The length penalty the file asks for (decoder.yml's normalize), else the core's 1.0 unless moved.
      if (typeof info.search?.alpha === 'number') {
        alphaMoved = false;
        showAlpha(info.search.alpha);
      } else if (!alphaMoved) {
        showAlpha(1);
      }
      // A multilingual model's languages, the choice kept for this model (a file of one's own: by its name).
      targetLanguage.show({
        tokens: info.targetTokens,
        key: choice?.model && choice.model !== 'file' ? choice.model : `file:${fileName}`,
        targetLanguage: named?.target,
      });
      showTargetLanguage();
      translateNow();
    } catch (error) {
      if (error.code === 'superseded') return;  // another model was chosen meanwhile
      progress.hide();
      const fromFile = typeof source !== 'string';
      const kept = error.code === 'worker' ? null : modelInUse;  // a worker that failed holds no model
      const message = loadErrorMessage(error, { name, fromFile, offline: !navigator.onLine });
      setModelStatus('error', kept ? `${message} ${kept.name} is still in use.` : message, error.message);
      if (kept) {
        showModelLanguages({ sourceText, translation: translationOutput }, kept.languages);
        showTargetLanguage();  // a multilingual model's choice, which stays with it
        picker.setInUse(kept.choice);
        modelReady = true;
        translateNow();  // the translation in flight was superseded by the load
      }
      if (fromFile || FINAL_LOAD_ERRORS.has(error.code)) return;  // a file's bytes are read once
      retryLoad = () => loadModel({ name, source, weights, languages, choice, reverse });
      modelRetry.hidden = false;
    }
  }

  // A Marian model folder (or its files) converted in the worker, kept in this browser, listed and
  // loaded; until it is ready the model in use stays, and after a failure too. Where the import cannot
  // tell the model's languages (no file name or README states them; a README states several a side),
  // the page asks for them (import-languages.js) and imports again with the pair given, or naming none.
  async function importModel(files, folder) {
    const choice = ++choices;
    languagesForm.close();
    modelRetry.hidden = true;
    progress.hide();
    let asked = { multilingual: 'refuse' };  // importMarian's languages and multilingual
    for (;;) {
      setModelStatus('loading', `Importing ${folder}…`);
      let imported = null;
      let refusal = null;
      try {
        imported = await worker.importMarian(files, {
          ...asked,
          onProgress: (step) => {
            if (choice !== choices) return;
            const name = step.file?.slice(step.file.lastIndexOf('/') + 1);
            setModelStatus('loading', step.stage === 'reading'
              ? `Importing ${folder}: reading ${name} (file ${step.filesDone + 1} of ${step.files})…`
              : `Importing ${folder}: converting it into an Attend model…`);
          },
        });
      } catch (error) {
        if (choice !== choices) return;
        if (!asksForLanguages(error)) return showImportError(error, folder);
        refusal = error;
      }
      if (choice !== choices) return;  // another model was chosen meanwhile
      if (imported && (imported.languages || asked.multilingual !== 'refuse')) return keepAndLoad(imported, folder, choice);
      const answer = await askLanguages(folder, refusal);
      if (choice !== choices) return;  // the question was closed by another choice
      if (!answer) {
        setModelStatus('ready', `"${folder}" was not imported.${modelInUse ? ` ${modelInUse.name} is still in use.` : ''}`);
        return picker.showModelInUse();
      }
      if (answer.without && imported) return keepAndLoad(imported, folder, choice);
      asked = answer.languages ? { languages: answer.languages } : { multilingual: 'unnamed' };
    }
  }

  // Asks which languages `folder`'s model translates, as its import could not tell: refused
  // (a README stating several or unclear languages) or imported naming none.
  function askLanguages(folder, refusal) {
    setModelStatus('asking', `Importing ${folder}: which languages does it translate?${modelInUse ? ` ${modelInUse.name} is still in use.` : ''}`);
    if (!refusal) {
      return languagesForm.ask({
        folder,
        why: 'Neither its file names nor a README say which languages it translates. Name them, so its sentences are cut '
          + 'by the source language\'s rules and the texts are tagged with their languages, or import it without.',
        without: 'Import without naming them',
      });
    }
    const multilingual = offersMultilingual(refusal);  // importing it naming no languages would take it
    return languagesForm.ask({
      folder,
      why: `${refusalText(refusal)}.${multilingual
        ? ' Or import it as a multilingual model: its >>xxx<< target tokens then choose the language it writes.' : ''}`,
      without: multilingual ? 'Import as a multilingual model' : null,
    });
  }

  function showImportError(error, folder) {
    const kept = error.code === 'worker' ? null : modelInUse;
    const message = importErrorMessage(error, { name: folder });
    setModelStatus('error', kept ? `${message} ${kept.name} is still in use.` : message, error.message);
    picker.showModelInUse();
  }

  // An imported model kept in this browser (where it can be), listed and loaded.
  async function keepAndLoad(imported, folder, choice) {
    let description = { name: folder, languages: imported.languages, files: imported.files, license: imported.license };
    let kept = true;
    try {
      description = await keepImportedModel(imported.bytes, imported, folder);
      picker.addImported(description);
    } catch {
      kept = false;  // it still loads; it is not kept for the next visit
    }
    if (choice !== choices) return;
    await loadModel({
      name: `${languagePairName(imported.languages)} (imported: ${folder})`,
      source: imported.bytes.buffer,
      languages: languageTags(imported.languages),
      choice: kept ? { model: `imported:${description.id}`, quality: 'fast' } : { model: 'file', quality: 'fast' },
      imported: description,
    });
    if (!kept && modelReady) modelStatus.textContent += ' This browser could not keep it for later: import it again next time.';
  }

  modelForget.addEventListener('click', async () => {
    const id = modelInUse?.imported?.id;
    if (!id) return;
    await forgetImportedModel(id).catch(() => {});
    picker.removeImported(id);
    modelForget.hidden = true;
    byId('model-select').focus();  // the button hides
    setModelStatus('ready', `${modelInUse.name} was removed from this browser; it stays in use until you choose another model.`);
  });

  async function translateNow() {
    clearTimeout(typingTimer);
    const text = sourceText.value.trim();
    if (!modelReady) return;  // loading a model superseded the requests in flight
    showInputMessage(null);
    stoppedNote.hidden = true;
    showRerankNote(modelInUse?.reverse);
    if (!text) return clearTranslation();
    const options = translationOptions(panel.maskedHeads, modelInUse?.reverse);
    if (looksLikeHtml(text)) return translateMarkup(text, options);
    const comparing = options.maskedHeads.length > 0;
    panel.startLive(text, options);
    document.body.dataset.translating = 'true';
    documentView.showWorking();
    try {
      const { document: translated, single, baseline, timing, otherLanguage } = await worker.translate(text, options, {
        document: true,
        onToken: (step) => panel.addLiveStep(step),
        onProgress: (progress) => {
          if (progress.sentences > 1) panel.hideLive();  // live steps are shown for one sentence only
          if ('otherLanguage' in progress) showOtherLanguage(progress.otherLanguage);
          if (progress.plan) documentView.begin(progress.plan);
          if (progress.translations) documentView.addTranslations(progress.first, progress.translations);
          documentView.showProgress(progress);
        },
        compareWithoutMasks: comparing,
      });
      documentView.show(translated, { interactive: !single });
      showOtherLanguage(otherLanguage);
      setCopyable({ text: translated.text });
      showTranslation(text, translated.text, timing);
      sentenceHint.hidden = single;
      const first = translated.segments.find((segment) => segment.translation);
      if (single) {
        showAttention(first.source, first.translation);
      } else {
        panel.hideLive();
        documentView.markChosen(0);
        showSentenceAttention(first);
      }
      if (comparing) ablation.show(baseline, translated.text, options.maskedHeads.length);
      else ablation.clear();
      document.body.dataset.translating = 'false';
    } catch (error) {
      if (error.code === 'superseded') return;
      clearTranslation();  // what is shown was another text's
      showInputMessage(translateErrorMessage(error));
    }
  }

  // HTML in the text box (translateHTML): the translated markup shown as text to copy, the
  // attention of its first sentence below.
  async function translateMarkup(text, options) {
    showOtherLanguage(null);
    panel.hideLive();
    ablation.clear();
    document.body.dataset.translating = 'true';
    documentView.showWorking();
    try {
      const { html, sentences, single } = await worker.translate(text, options, { html: true });
      documentView.show({ segments: [{ source: html }] }, { interactive: false });
      // The markup's text, as a browser shows it (DOMParser runs nothing).
      setCopyable({ text: new DOMParser().parseFromString(html, 'text/html').body.textContent, html });
      showTranslation(text, html);
      sentenceHint.hidden = true;
      if (sentences.length > 0) {
        if (single) showAttention(sentences[0].source, sentences[0].translation);
        else showSentenceAttention(sentences[0]);
      }
      document.body.dataset.translating = 'false';
    } catch (error) {
      if (error.code === 'superseded') return;
      clearTranslation();
      showInputMessage(translateErrorMessage(error));
    }
  }

  sourceText.addEventListener('input', () => {
    clearTimeout(typingTimer);
    typingTimer = setTimeout(translateNow, TYPING_PAUSE_MS);
  });
  // The field shows the beam used, and says why when that is not what was typed.
  const beamNote = byId('beam-note');
  beamInput.addEventListener('change', () => {
    const typed = beamInput.value.trim();
    const used = beamUsed();
    const number = Number(typed);
    let why = '';
    if (typed === '' || !Number.isFinite(number)) why = `Beam size ${typed === '' ? 'was empty' : `“${typed}” is not a number`}: translating with ${used}, the quickest.`;
    else if (number > MAX_BEAM) why = `Beam size ${typed} is more than this page weighs (at most ${MAX_BEAM}, to keep it quick in a browser): translating with ${used}.`;
    else if (number < 1) why = `Beam size ${typed} is less than 1: translating with ${used}.`;
    else if (!Number.isInteger(number)) why = `Beam size ${typed} is not a whole number: translating with ${used}.`;
    beamInput.value = used;
    beamNote.textContent = why;
    beamNote.hidden = !why;
    translateNow();
  });
  showAlpha(1);  // not moved yet (a browser may have restored the slider's value)
  alphaInput.addEventListener('input', () => {
    alphaMoved = true;
    showAlpha();
  });
  alphaInput.addEventListener('change', () => {
    alphaMoved = true;
    translateNow();
  });
  targetLanguage.onChange = () => {
    showTargetLanguage();
    translateNow();
  };
  captionRulesInput.addEventListener('change', translateNow);

  const picker = new ModelPicker({
    select: byId('model-select'),
    quality: byId('model-quality'),
    fileInput: byId('model-file'),
    fileLabel: byId('model-file-label'),
    marian: { container: byId('marian-import'), folderInput: byId('marian-folder'), filesInput: byId('marian-files') },
    dropTarget: document.body,
    onChoose: loadModel,
    onImport: importModel,
    onUnreadable: (message) => setModelStatus('error', message),
    pendingNote: byId('model-pending'),
  });
  picker.chooseInitial();
}

const reason = unsupportedReason();
if (reason) {
  showFatal(reason);
} else {
  registerServiceWorker().then(startTranslator);
}
