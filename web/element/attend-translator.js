// <attend-translator>: a translator in one element. The elements of one model share one Web
// Worker and one copy of the model (shared-models.js).
//
//   <script type="module" src="/web/element/attend-translator.js"></script>
//   <attend-translator model="/models/en-de/model.int8.safetensors" target-lang="de" attention>A dog runs.</attend-translator>
//
// Attributes: model (URL of a model file; several URLs separated by spaces: an ensemble, the
// models decoding together, their log-probabilities averaged), marian (instead of model: the URLs of
// a Marian model folder's files, separated by spaces, as the page imports a folder: Firefox
// Translations' model*.bin, vocab*.spm, lex*.bin, gzipped or not, or OPUS-MT's *.npz, *.vocab.yml,
// source.spm, target.spm, decoder.yml; imported in the worker and kept in the browser's Cache Storage
// for the next visit while the server's files are unchanged), languages (with marian: the pair it
// translates, "en-de", where its file names or README do not state them, or to override them),
// multilingual (with marian: "unnamed", the default, imports a model whose README states several
// languages a side naming none; "refuse" refuses it, asking for languages), target-token (a
// multilingual OPUS-MT model's target language, ">>fra<<" or "fra"), src-text (the text to translate; else the
// element's own text; else an input box of its own), beam, alpha, attention (show a
// compact cross-attention heatmap: the last decoder layer, averaged over heads, when the text
// is one sentence), target-lang (the translation's language tag, for screen readers and fonts),
// source-lang (the input box's language, named in its placeholder), placeholder (the input box's),
// rerank-with (URL of a model of the other direction: each beam is reranked by it, so beam must
// be 2 or more), rerank-weight (its weight, default 0.3) and caption-rules ("auto", the default:
// the caption layer's rules where the model file asks for them; "on" or "off").
// A text of any length is translated sentence by sentence, with its progress in the status and
// a Stop button; sentences not to trust are underlined (part "sentence unsure", the reason in
// their title), each followed by a "why?" button (part "why", as on the page: doubt-reason.js) that
// shows its reason under the translation (part "reason", a status region), and are summed up in
// words (part "notes").
// The element's own content, when it holds elements (links, emphasis, a list), is translated
// as HTML (Translator.translateHTML) with its markup kept around the right words.
// Events (bubbling, composed): attend-ready (detail: model info), attend-translation
// (detail: for text, the result of Translator.translateDocument, {text, segments}; for the
// element's markup, {text, html, sentences} from Translator.translateHTML), attend-error
// (detail: {code, message}).
// Methods: translate(), reload() (loads the model again, e.g. after a failed download; a
// model other elements have loaded is used as it is). Property: ready (a promise of the
// model's info once it is loaded; rejected with {code, message} when its load fails).
import { lastLayerMeanCross } from '../app/attention-mean.js';
import { doubtSummary, renderTranslatedDocument } from '../app/document-render.js';
import { DoubtReasons } from '../app/doubt-reason.js';
import { cellAt, paintHeatmap } from '../app/heatmap-canvas.js';
import { renderTranslatedHtml } from '../app/html-render.js';
import { parseLanguagePair } from '../app/language-codes.js';
import { withReadableLabels } from '../app/piece-names.js';
import { unsupportedReason } from '../app/webassembly-support.js';
import { useModel } from './shared-models.js';

const TYPING_PAUSE_MS = 300;
const DEFAULT_BEAM = 4;
const PROGRESS_STEP = 10;  // percent: the status (a live region) is not re-announced more often
// Errors that are not failures: a newer request took over, or the worker was stopped (every
// element of its model was removed from the document).
const EXPECTED_ERROR_CODES = new Set(['superseded', 'terminated']);
// The attributes that name what the element loads: changing one loads anew.
const MODEL_ATTRIBUTES = new Set(['model', 'marian', 'languages', 'multilingual', 'rerank-with', 'rerank-weight']);
// multilingual's values, as importMarian takes them.
const MULTILINGUAL = new Set(['unnamed', 'refuse']);

const TEMPLATE = `
  <style>
    /* The host page's font; colours from the --attend-* custom properties (web/README.md). */
    :host { display: block; font-family: var(--attend-font, inherit); border: 1px solid var(--attend-border, #ccd3de); border-radius: var(--attend-radius, 8px); padding: 10px 12px; background: var(--attend-background, #fff); color: var(--attend-color, #1d2433); }
    :host([hidden]) { display: none; }
    textarea, button { font: inherit; color: inherit; }
    textarea { width: 100%; box-sizing: border-box; padding: 6px; border: 1px solid var(--attend-input-border, #aab3c2); border-radius: 6px; background: var(--attend-input-background, #fff); }
    textarea::placeholder { color: var(--attend-muted, #5b6475); }
    :focus-visible { outline: 2px solid var(--attend-accent, #08519c); outline-offset: 2px; }
    .source { color: var(--attend-muted, #5b6475); margin: 0 0 6px; }
    .translation { font-size: 1.15em; margin: 6px 0; min-height: 1.4em; white-space: pre-wrap; }
    .sentence.unsure { text-decoration: underline wavy var(--attend-unsure, #c77700); text-underline-offset: 3px; }
    /* The "why?" button after an underlined sentence (its text drawn here, so the translation's text is the translation) and the reason it shows. */
    .doubt-reason { min-width: 24px; min-height: 24px; margin: 0 2px; padding: 0 6px; border: 1px solid var(--attend-unsure, #c77700); border-radius: 12px;
      background: var(--attend-background, #fff); color: var(--attend-unsure-text, #8a5300); font-size: 0.7em; font-style: normal; line-height: 1; vertical-align: middle; cursor: pointer; }
    .doubt-reason::before { content: "why?"; }
    .doubt-reason[aria-expanded="true"] { background: var(--attend-unsure-text, #8a5300); color: var(--attend-background, #fff); }
    .reason { color: var(--attend-unsure-text, #8a5300); font-size: 0.85em; margin: 0 0 4px; }
    .notes { color: var(--attend-unsure-text, #8a5300); font-size: 0.85em; margin: 0 0 4px; }
    .progress:not([hidden]) { display: flex; align-items: center; gap: 8px; }
    progress { accent-color: var(--attend-accent, #08519c); }
    .status { color: var(--attend-muted, #5b6475); font-size: 0.85em; margin: 0; }
    .status.error { color: var(--attend-error, #a4161a); font-weight: 600; }
    .heatmap { overflow-x: auto; margin-top: 6px; }
    .heatmap canvas { touch-action: pan-x pinch-zoom; }
    .reading { font-size: 0.85em; margin: 2px 0 0; min-height: 1.2em; font-variant-numeric: tabular-nums; }
    label { display: block; font-size: 0.85em; font-weight: 600; margin: 0 0 4px; }
    label:has(+ textarea[hidden]) { display: none; }
  </style>
  <p class="source" part="source"><span class="src-text"></span><slot></slot></p>
  <label for="input" part="label">Text to translate</label>
  <textarea id="input" rows="2" part="input" hidden></textarea>
  <p class="translation" part="translation" aria-live="polite"></p>
  <p class="reason" part="reason" role="status" hidden></p>
  <p class="notes" part="notes" hidden></p>
  <p class="status" part="status" role="status"></p>
  <div class="progress" part="progress" hidden><progress max="1" value="0" aria-label="Translation progress"></progress><button type="button" part="stop">Stop</button></div>
  <div class="heatmap" part="heatmap" hidden><canvas role="img" aria-label="Cross-attention"></canvas><p class="reading" part="reading" aria-live="polite"></p></div>
`;

const invalidArgument = (message) => ({ code: 'invalid_argument', message });

// "English" for "en"; null for no tag or one that is not a language.
function languageName(tag) {
  try {
    return tag ? new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(tag) ?? null : null;
  } catch {
    return null;  // not a well-formed tag
  }
}

// A promise with its resolve and reject, which settle it once. A rejection nobody awaits is
// not reported as unhandled: attend-error has told the page.
function settleOnce() {
  const readiness = { settled: false };
  const once = (settle) => (value) => {
    if (readiness.settled) return;
    readiness.settled = true;
    settle(value);
  };
  readiness.promise = new Promise((resolve, reject) => {
    readiness.resolve = once(resolve);
    readiness.reject = once(reject);
  });
  readiness.promise.catch(() => {});
  return readiness;
}

// caption-rules' values, as TranslateOptions.captionRules takes them.
const CAPTION_RULES = { auto: 'auto', on: true, off: false };

class AttendTranslator extends HTMLElement {
  static observedAttributes = [
    'model', 'marian', 'languages', 'multilingual', 'rerank-with', 'rerank-weight', 'src-text', 'beam', 'alpha', 'attention', 'target-lang', 'source-lang',
    'placeholder', 'caption-rules', 'target-token',
  ];

  #active = false;  // in the document, in a browser that can run the translator
  #model = null;  // useModel()'s {lane, ready, release} of the model in use or loading
  #loadQueued = false;  // connected: the model loads once the inserting script has run
  #ready = false;
  #readiness = settleOnce();  // of the model in use or loading, or of the next one
  #typingTimer = 0;
  #heatmap = null;  // {matrix, geometry} of the heatmap shown, for reading its cells
  #requestedText = null;  // the text (or markup) of the newest translate() while ready
  #reasons;  // the reason a sentence is underlined, shown when its "why?" button is pressed
  #parts;

  constructor() {
    super();
    const shadow = this.attachShadow({ mode: 'open' });
    shadow.innerHTML = TEMPLATE;
    this.#parts = {
      reading: shadow.querySelector('.reading'),
      input: shadow.querySelector('textarea'),
      translation: shadow.querySelector('.translation'),
      status: shadow.querySelector('.status'),
      srcText: shadow.querySelector('.src-text'),
      slot: shadow.querySelector('slot'),
      heatmap: shadow.querySelector('.heatmap'),
      canvas: shadow.querySelector('canvas'),
      progress: shadow.querySelector('.progress'),
      progressBar: shadow.querySelector('progress'),
      notes: shadow.querySelector('.notes'),
    };
    this.#reasons = new DoubtReasons(this.#parts.translation, shadow.querySelector('.reason'));
    // A mouse or a finger (a tap, or a drag up or down: the page does not scroll under it) reads
    // the weight of the cell under it.
    const readCell = (event) => {
      const cell = this.#heatmap && cellAt(this.#heatmap.geometry, this.#heatmap.matrix, event.offsetX, event.offsetY);
      if (!cell) return;
      const { rowLabels, colLabels, values, cols } = this.#heatmap.matrix;
      this.#parts.reading.textContent = `${rowLabels[cell.row]} → ${colLabels[cell.col]}: ${values[cell.row * cols + cell.col].toFixed(3)}`;
    };
    this.#parts.canvas.addEventListener('pointerdown', readCell);
    this.#parts.canvas.addEventListener('pointermove', readCell);
    shadow.querySelector('.progress button').addEventListener('click', () => {
      this.#clearTranslation();
      this.#setStatus('Stopped.');
    });
    this.#parts.input.addEventListener('input', () => {
      clearTimeout(this.#typingTimer);
      this.#typingTimer = setTimeout(() => this.translate(), TYPING_PAUSE_MS);
    });
    this.#showInputHints();
    // The element's own text: children added or removed, and text edited in place.
    new MutationObserver(() => {
      this.#showSource();
      if (this.#requestKey() !== this.#requestedText) this.translate();
    }).observe(this, { childList: true, characterData: true, subtree: true });
  }

  connectedCallback() {
    this.#showSource();
    if (this.#active) return;  // moved within the document: its model stays
    const reason = unsupportedReason();
    if (reason) return this.#fail({ code: 'unsupported', message: reason });
    this.#active = true;
    // Scripts often insert the element and then set its attributes: the model is taken when
    // they are done, so a model attribute set right after the insertion is no error.
    this.#loadQueued = true;
    queueMicrotask(() => {
      if (this.#loadQueued && this.isConnected) this.#load();  // not if removed meanwhile
    });
  }

  // A move (removed, then inserted again before the next task, as lists reorder) keeps the
  // model; an element still out of the document then lets it go.
  disconnectedCallback() {
    setTimeout(() => {
      if (this.isConnected) return;
      this.#active = false;
      this.#loadQueued = false;
      this.#releaseModel();
    }, 0);
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (name === 'src-text') this.#showSource();
    if (name === 'target-lang') return this.#showTargetLanguage();
    if (name === 'source-lang' || name === 'placeholder') return this.#showInputHints();
    if (!this.#active || this.#loadQueued || oldValue === newValue) return;
    if (MODEL_ATTRIBUTES.has(name)) this.#load();
    else this.translate();
  }

  // Loads the model attribute's file again, in a new worker: after a failed download, say, or
  // a worker that did not start. A model other elements of the page hold is taken as it is.
  reload() {
    if (!this.isConnected || unsupportedReason()) return;
    this.#load();
  }

  // Resolves with the model's info() once the element's model is loaded (at once if it is);
  // rejects with {code, message} when that load fails. Once settled, another model (the model
  // attribute, reload(), removal from the document) makes a new promise, for the next load; one
  // still pending settles with the newest load.
  get ready() {
    return this.#readiness.promise;
  }

  // The text to translate: src-text, else the element's own text with its white space
  // collapsed as the page shows it, else its input box. Line breaks of src-text and of the
  // input box are kept.
  get sourceText() {
    const ownText = this.textContent.replace(/\s+/g, ' ').trim();
    return (this.getAttribute('src-text') ?? (ownText || this.#parts.input.value)).trim();
  }

  // Translates the current text (translateDocument, or translateHTML for the element's own
  // content when it holds elements); resolves with the attend-translation event's detail, or
  // undefined: no model is ready (loading, failed or disconnected), a newer request took over,
  // the translation failed (attend-error), or there is no text (then the shown translation is cleared).
  async translate() {
    const text = this.sourceText;
    const markup = this.#ownMarkup();
    if (!this.#ready) return undefined;
    this.#requestedText = markup ?? text;
    if (!text) return this.#showNothing();
    try {
      if (markup !== null) return await this.#translateMarkup(markup);
      const { document: translated, single } = await this.#model.lane.translate(text, this.#searchOptions(), {
        document: true,
        onProgress: (progress) => this.#showProgress(progress),
      });
      this.#parts.progress.hidden = true;
      this.#reasons.hide();
      renderTranslatedDocument(this.#parts.translation, translated.segments, { reasonButtons: true });
      this.#parts.notes.textContent = doubtSummary(translated.segments);
      this.#parts.notes.hidden = this.#parts.notes.textContent === '';
      this.#drawAttention(single ? translated.segments.find((segment) => segment.translation).translation : null);
      this.#setStatus('');
      this.dispatchEvent(new CustomEvent('attend-translation', { detail: translated, bubbles: true, composed: true }));
      return translated;
    } catch (error) {
      if (error.code === 'empty_input') this.#showNothing();  // only invisible characters
      else if (!EXPECTED_ERROR_CODES.has(error.code)) {
        this.#clearTranslation();  // it was another text's, or of a request still in flight
        this.#fail(error);
      }
      return undefined;
    }
  }

  // The element's own content as HTML when it holds elements (and src-text is absent), else null.
  #ownMarkup() {
    return this.getAttribute('src-text') === null && this.children.length > 0 ? this.innerHTML.trim() : null;
  }

  #requestKey() {
    return this.#ownMarkup() ?? this.sourceText;
  }

  // The element's markup translated with its inline elements kept (links, emphasis), shown
  // without anything that would run (html-render.js).
  async #translateMarkup(markup) {
    const { html, sentences, single } = await this.#model.lane.translate(markup, this.#searchOptions(), { html: true });
    this.#reasons.hide();
    renderTranslatedHtml(this.#parts.translation, html);
    const segments = sentences.map(({ source, translation }) => ({ source, translation }));
    this.#parts.notes.textContent = doubtSummary(segments);
    this.#parts.notes.hidden = this.#parts.notes.textContent === '';
    this.#drawAttention(single ? sentences[0].translation : null);
    this.#setStatus('');
    const detail = { text: this.#parts.translation.textContent, html, sentences };
    this.dispatchEvent(new CustomEvent('attend-translation', { detail, bubbles: true, composed: true }));
    return detail;
  }

  // beam, alpha and caption-rules as the core takes them; an absent or empty attribute means the
  // default (for alpha and caption-rules the core's: the option is left out). The core checks the ranges.
  #searchOptions() {
    const options = { beam: DEFAULT_BEAM, attention: this.hasAttribute('attention') };
    const beam = this.getAttribute('beam')?.trim();
    if (beam) {
      if (!/^\d+$/.test(beam)) throw invalidArgument(`beam="${beam}" is not a whole number`);
      options.beam = Number(beam);
    }
    if (this.hasAttribute('rerank-with') && options.beam < 2) {
      throw invalidArgument(`beam="${options.beam}" cannot rerank: rerank-with needs a beam of 2 or more (greedy search has one candidate)`);
    }
    const alpha = this.getAttribute('alpha')?.trim();
    if (alpha) {
      if (!Number.isFinite(Number(alpha))) throw invalidArgument(`alpha="${alpha}" is not a number`);
      options.alpha = Number(alpha);
    }
    const captionRules = this.getAttribute('caption-rules')?.trim();
    if (captionRules) {
      if (!(captionRules in CAPTION_RULES)) throw invalidArgument(`caption-rules="${captionRules}" is not auto, on or off`);
      options.captionRules = CAPTION_RULES[captionRules];
    }
    const targetToken = this.getAttribute('target-token')?.trim();
    if (targetToken) options.targetToken = targetToken;  // the core checks it against the vocabulary
    return options;
  }

  // What useModel() loads: {url, marian, languages, multilingual, reverse, reverseWeight}: the model attribute
  // as absolute URLs separated by a space (an absolute URL holds none), or the marian attribute's as an array
  // with its languages ("en-de", canonical: "eng-deu" is "en-de") and multilingual (as importMarian takes
  // them), rerank-with's absolute URL or null, and rerank-weight's number (undefined when absent or empty: the default).
  #modelSource() {
    const model = this.getAttribute('model')?.trim();
    const marian = this.getAttribute('marian')?.trim();
    if (model && marian) throw invalidArgument('the model and marian attributes are both given: a model file\'s URL, or a Marian model folder\'s files, not both');
    if (!model && !marian) throw invalidArgument(this.hasAttribute('marian') ? 'the marian attribute names no file' : 'the model attribute is missing');
    const absolute = (text, attribute) => {
      try {
        return text.split(/\s+/).map((url) => new URL(url, document.baseURI).href).join(' ');
      } catch {
        throw invalidArgument(`the ${attribute} attribute "${text}" is not a URL`);
      }
    };
    const { languages, multilingual } = this.#marianOptions(Boolean(marian));
    const reverse = this.getAttribute('rerank-with')?.trim();
    if (reverse === '' || /\s/.test(reverse ?? '')) throw invalidArgument(`rerank-with="${reverse}" must be one model's URL`);
    const weight = this.getAttribute('rerank-weight')?.trim();
    if (weight && !(Number(weight) >= 0 && Number.isFinite(Number(weight)))) {
      throw invalidArgument(`rerank-weight="${weight}" is not a number ≥ 0`);
    }
    return {
      url: model ? absolute(model, 'model') : null,
      marian: marian ? absolute(marian, 'marian').split(' ') : null,
      languages,
      multilingual,
      reverse: reverse === undefined ? null : absolute(reverse, 'rerank-with'),
      reverseWeight: weight ? Number(weight) : undefined,
    };
  }

  // The languages and multilingual attributes (absent or empty: importMarian's defaults, but multilingual
  // 'unnamed'), for a marian import: a model file names its own languages.
  #marianOptions(marian) {
    const languages = this.getAttribute('languages')?.trim() || undefined;
    const multilingual = this.getAttribute('multilingual')?.trim() || undefined;
    if (!marian && (languages || multilingual)) {
      throw invalidArgument(`the ${languages ? 'languages' : 'multilingual'} attribute is for a marian import: a model file names its own languages`);
    }
    if (multilingual && !MULTILINGUAL.has(multilingual)) throw invalidArgument(`multilingual="${multilingual}" is not unnamed or refuse`);
    try {
      // 'unnamed' is the worker's default: one import kept for it given or not.
      return { languages: languages && parseLanguagePair(languages), multilingual: multilingual === 'refuse' ? multilingual : undefined };
    } catch (error) {
      throw invalidArgument(`languages="${languages}": ${error.message.replace(/^./, (first) => first.toLowerCase())}`);
    }
  }

  // Lets the model go: translations in flight settle as superseded, and the last element of
  // the model stops its worker.
  #releaseModel() {
    this.#clearTranslation();
    this.#ready = false;
    if (this.#readiness.settled) this.#readiness = settleOnce();
    this.#model?.release();
    this.#model = null;
  }

  // Lets the model in use (or loading) go and takes the model attribute's, loading it unless
  // another element has.
  async #load() {
    this.#loadQueued = false;
    this.#releaseModel();
    let source;
    try {
      source = this.#modelSource();
    } catch (error) {
      return this.#fail(error);
    }
    this.#setStatus('Loading the translator…');
    let shownPercent = 0;
    const model = useModel(source, ({ loaded, total }) => {
      const percent = total ? Math.min(100, Math.floor((100 * loaded) / total / PROGRESS_STEP) * PROGRESS_STEP) : 0;
      if (percent <= shownPercent) return;
      shownPercent = percent;
      this.#setStatus(`Loading the translator… ${percent}%`);
    });
    this.#model = model;
    try {
      const info = await model.ready;
      if (this.#model !== model) return;  // let go meanwhile (another model, reload or removal)
      this.#ready = true;
      this.#readiness.resolve(info);
      this.#setStatus('');
      this.dispatchEvent(new CustomEvent('attend-ready', { detail: info, bubbles: true, composed: true }));
      await this.translate();
    } catch (error) {
      if (this.#model === model && !EXPECTED_ERROR_CODES.has(error.code)) this.#fail(error);
    }
  }

  // Shows the text being translated (src-text over the element's own text) or the input box.
  #showSource() {
    const srcText = this.getAttribute('src-text');
    this.#parts.srcText.textContent = srcText ?? '';
    this.#parts.slot.hidden = srcText !== null;
    this.#parts.input.hidden = srcText !== null || this.textContent.trim() !== '';
  }

  // The input box in the source language (source-lang: its lang, and a placeholder naming it)
  // unless the placeholder attribute says otherwise.
  #showInputHints() {
    const { input } = this.#parts;
    const lang = this.getAttribute('source-lang');
    if (lang) input.lang = lang;
    else input.removeAttribute('lang');
    input.placeholder = this.getAttribute('placeholder') ?? `Type ${languageName(lang) ?? 'a text'} here…`;
  }

  #showTargetLanguage() {
    const lang = this.getAttribute('target-lang');
    if (lang) this.#parts.translation.lang = lang;
    else this.#parts.translation.removeAttribute('lang');
  }

  // Shows no translation, and lets none that is in flight land.
  #clearTranslation() {
    this.#model?.lane.cancel();
    this.#parts.translation.textContent = '';
    this.#reasons.hide();
    this.#parts.notes.hidden = true;
    this.#parts.heatmap.hidden = true;
    this.#parts.progress.hidden = true;
  }

  // A text of several groups of sentences shows its progress and the Stop button.
  #showProgress({ sentencesDone, sentences }) {
    if (sentences <= 1) return;
    this.#parts.progress.hidden = false;
    this.#parts.progressBar.value = sentencesDone / sentences;
    this.#setStatus(`Translating… ${sentencesDone} of ${sentences} sentences`);
  }

  // There is nothing to translate: no translation and no message (an earlier error was
  // another text's).
  #showNothing() {
    this.#clearTranslation();
    this.#setStatus('');
  }

  // result: the translation of the text's only sentence, or null for several.
  #drawAttention(result) {
    const show = this.hasAttribute('attention') && Boolean(result?.attention);
    this.#parts.heatmap.hidden = !show;
    this.#parts.reading.textContent = '';
    this.#heatmap = null;
    if (!show) return;
    const matrix = withReadableLabels(lastLayerMeanCross(result.attention));
    const geometry = paintHeatmap(this.#parts.canvas, matrix, { maxWidth: this.clientWidth - 24, maxCell: 22 });
    this.#heatmap = { matrix, geometry };
    Object.assign(this.#parts.canvas.dataset, { gridLeft: geometry.left, gridTop: geometry.top, cellSize: geometry.cell });  // for tests
  }

  #setStatus(message, isError = false) {
    this.#parts.status.textContent = message;
    this.#parts.status.classList.toggle('error', isError);
  }

  // A failure of the model's load (rejecting ready) or, once it is ready, of a translation.
  #fail({ code, message }) {
    if (!this.#ready) this.#readiness.reject({ code, message });
    this.#setStatus(`Translation unavailable: ${message}`, true);
    this.dispatchEvent(new CustomEvent('attend-error', { detail: { code, message }, bubbles: true, composed: true }));
  }
}

customElements.define('attend-translator', AttendTranslator);
