// The attention section: which kind, layer and head to show (and, for an ensemble, which of its
// models), and the views drawn from the newest translation's attention (heatmap, all-heads
// grid, links), plus the exports; and the live decoding view under the translation, which
// shows each step while the worker decodes.
import { attentionShape, KIND_NAMES } from './attention-data.js';
import { attentionJson } from './attention-json.js';
import { HeadGrid } from './head-grid.js';
import { HeatmapView } from './heatmap-view.js';
import { LineView } from './line-view.js';
import { LiveDecodingView } from './live-decoding-view.js';
import { canvasPicture, containerPicture, downloadBlob, downloadFigurePng, svgPicture } from './png-export.js';

const byId = (id) => document.getElementById(id);

// Options 1..count, keeping the chosen index when there is one, else choosing `initial`.
function fillOptions(select, count, label, initial) {
  const kept = select.options.length > 0 ? Math.min(Number(select.value), count - 1) : initial;
  select.replaceChildren(...Array.from({ length: count }, (_, i) => new Option(`${label} ${i + 1}`, i)));
  select.value = kept;
}

export class AttentionPanel {
  #section = byId('attention');
  #kind = byId('attention-kind');
  #layer = byId('attention-layer');
  #head = byId('attention-head');
  #member = byId('attention-member');  // an ensemble's: whose maps the views draw
  #heatmap = new HeatmapView({ canvas: byId('heatmap'), tooltip: byId('heatmap-tooltip'), caption: byId('heatmap-caption'), reading: byId('heatmap-reading'), scrollHint: byId('heatmap-scroll-cue') });
  #lines = new LineView({ svg: byId('lines'), scrollHint: byId('lines-scroll-cue') });
  #live = new LiveDecodingView({ container: byId('live-decoding'), canvas: byId('live-heatmap'), pieces: byId('live-pieces'), note: byId('live-note') });
  #grid;
  #sourceText = '';
  #result = null;
  #redrawPending = false;
  #ssru = false;  // the model's decoder layers look back with Marian's SSRU, not self-attention

  constructor({ onMasksChanged }) {
    this.#grid = new HeadGrid({
      container: byId('head-grid'),
      onOpen: ({ layer, head }) => this.#select(layer, head),
      onMasksChanged: (maskedHeads) => {
        byId('clear-masks').disabled = maskedHeads.length === 0;
        onMasksChanged(maskedHeads);
      },
    });
    for (const select of [this.#kind, this.#layer, this.#head, this.#member]) select.addEventListener('change', () => this.#draw());
    byId('clear-masks').addEventListener('click', () => this.#grid.clearMasks());
    byId('export-json').addEventListener('click', () => this.#exportJson());
    byId('heatmap-png').addEventListener('click', () => this.#exportPng(
      canvasPicture(this.#heatmap.exportCanvas()), this.#headTitle(), 'weights', this.#fileName('heatmap')));
    byId('grid-png').addEventListener('click', () => this.#exportPng(
      containerPicture(byId('head-grid')), `${KIND_NAMES[this.#kind.value]}, all layers and heads`, 'weights', this.#fileName('heads')));
    byId('lines-png').addEventListener('click', async () => this.#exportPng(
      await svgPicture(this.#lines.svg), `${this.#headTitle()}: links`, 'links', this.#fileName('links')));
    byId('live-png').addEventListener('click', () => this.#exportPng(
      canvasPicture(this.#live.exportCanvas()), 'Live decoding: cross-attention, last layer, mean of its heads', 'weights', 'attend-live-decoding.png'));
    window.addEventListener('resize', () => this.#redrawOnNextFrame());
  }

  // The model's info().config.decoderAutoreg: 'ssru' (Firefox Translations' students: a recurrent
  // cell in place of the decoder's self-attention) or 'self_attention'.
  setDecoderAutoreg(decoderAutoreg) {
    this.#ssru = decoderAutoreg === 'ssru';
    const option = this.#kind.querySelector('option[value="decoder"]');
    option.textContent = this.#ssru ? 'Decoder self (none in this model)' : 'Decoder self';
  }

  get maskedHeads() {
    return this.#grid.maskedHeads;
  }

  clearMasks() {
    this.#grid.clearMasks();
  }

  hide() {
    this.#section.hidden = true;
    this.#live.hide();
    this.#result = null;
    this.#sourceText = '';
  }

  // A translation of sourceText starts decoding with `beam` hypotheses; its steps follow
  // through addLiveStep.
  startLive(sourceText, { beam }) {
    const previous = this.#sourceText === sourceText ? this.#result?.attention?.sourcePieces : undefined;
    this.#live.start(previous, { beam });
  }

  // A text of several sentences decodes without live steps.
  hideLive() {
    this.#live.hide();
  }

  addLiveStep(step) {
    this.#live.addStep(step);
  }

  show(sourceText, result) {
    this.#sourceText = sourceText;
    this.#result = result;
    this.#section.hidden = false;
    this.#section.dataset.source = sourceText;  // for tests
    this.#live.finish(result.attention);
    this.#showMembers(result.attention);
    this.#draw();
  }

  // An ensemble's models in the Model list, the one masks apply to first chosen; hidden for one model.
  #showMembers({ members, attentionMember }) {
    byId('attention-member-field').hidden = !members;
    if (!members) return;
    const kept = this.#member.options.length === members.length ? this.#member.value : String(attentionMember);
    this.#member.replaceChildren(...members.map((_, m) => new Option(
      m === attentionMember ? `Model ${m + 1} (its heads can be masked)` : `Model ${m + 1}`, m)));
    this.#member.value = kept;
  }

  // The maps the views draw: the chosen member's, with the translation's pieces.
  #shownMaps() {
    const { attention } = this.#result;
    if (!attention.members) return { maps: attention, maskable: true };
    const member = Number(this.#member.value);
    return { maps: { ...attention, ...attention.members[member] }, maskable: member === attention.attentionMember };
  }

  #selection() {
    return { kind: this.#kind.value, layer: Number(this.#layer.value), head: Number(this.#head.value) };
  }

  #select(layer, head) {
    this.#layer.value = layer;
    this.#head.value = head;
    this.#draw();
    byId('heatmap').scrollIntoView({ block: 'nearest' });
  }

  #draw() {
    // An SSRU decoder has no self-attention: no weights to draw, and the views say so instead of
    // drawing the zeros the maps hold.
    const none = this.#ssru && this.#kind.value === 'decoder';
    const message = byId('no-self-attention');
    message.hidden = !none;
    message.textContent = none
      ? 'This model has no decoder self-attention: each of its decoder layers looks back at the words it has '
        + 'written with an SSRU (a simple recurrent unit, as Firefox Translations\' models do), which weighs no '
        + 'pieces against each other. Choose Cross or Encoder self to see where it attends.'
      : '';
    byId('attention-views').hidden = none;
    byId('links-view').hidden = none;
    for (const field of [this.#layer, this.#head]) field.disabled = none;
    if (none) return;
    const { maps: attention, maskable } = this.#shownMaps();
    const { layers, heads } = attentionShape(attention, this.#kind.value);
    fillOptions(this.#layer, layers, 'Layer', layers - 1);  // the last layer's heads align best, usually
    fillOptions(this.#head, heads, 'Head', 0);
    const selection = this.#selection();
    this.#heatmap.show(attention, selection);
    this.#grid.show(attention, selection, { maskable });
    this.#lines.show(attention, selection);
  }

  #redrawOnNextFrame() {
    if (!this.#result || this.#redrawPending) return;
    this.#redrawPending = true;
    requestAnimationFrame(() => {
      this.#redrawPending = false;
      this.#draw();
    });
  }

  // "Cross-attention, layer 4, head 1", for an ensemble "Model 2, cross-attention, …"
  #headTitle() {
    const { kind, layer, head } = this.#selection();
    const title = `${KIND_NAMES[kind]}, layer ${layer + 1}, head ${head + 1}`;
    if (!this.#result.attention.members) return title;
    return `Model ${Number(this.#member.value) + 1}, ${title[0].toLowerCase()}${title.slice(1)}`;
  }

  // A PNG of a view, titled, with the sentence and its translation under the title.
  #exportPng(picture, title, legend, filename) {
    const subtitle = `“${this.#sourceText}” → “${this.#result.text}”`;
    return downloadFigurePng({ picture, title, subtitle, legend }, filename);
  }

  #fileName(view) {
    const { kind, layer, head } = this.#selection();
    return view === 'heads' ? `attend-${kind}-heads.png` : `attend-${view}-${kind}-layer${layer + 1}-head${head + 1}.png`;
  }

  #exportJson() {
    const json = `${JSON.stringify(attentionJson(this.#sourceText, this.#result))}\n`;  // one JSON Lines record
    downloadBlob(new Blob([json], { type: 'application/json' }), 'attend-attention.json');
  }
}
