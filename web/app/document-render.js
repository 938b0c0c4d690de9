// A translated document as elements: each sentence a span (marked with a wavy underline when
// it is not to be trusted, the reason in its title), the text kept around the sentences as it
// is; and a summary of the marks, to show beside it in words. Shared by the page and
// <attend-translator>.
import { reasonButton } from './doubt-reason.js';
import { DOUBT_SUMMARIES, sentenceDoubt } from './sentence-doubt.js';

// Fills `container` from translateDocument's {segments}; interactive: the sentences are
// buttons (focusable, named), for choosing one. reasonButtons: each underlined sentence is followed
// by its "why?" button (doubt-reason.js, whose DoubtReasons shows the reason when it is pressed).
export function renderTranslatedDocument(container, segments, { interactive = false, reasonButtons = false } = {}) {
  let index = 0;
  container.replaceChildren(...segments.flatMap((segment) => {
    if (!segment.translation) return [document.createTextNode(segment.source)];
    const element = sentenceElement(segment.translation, index++, interactive);
    if (!reasonButtons || !element.dataset.doubt) return [element];
    return [element, reasonButton(index - 1, element.title)];
  }));
}

// "2 sentences are marked: 1 is in a script the model cannot read, …", or '' when none is.
export function doubtSummary(segments) {
  const counts = new Map();
  for (const { translation } of segments) {
    const doubt = translation && sentenceDoubt(translation);
    if (doubt) counts.set(doubt.kind, (counts.get(doubt.kind) ?? 0) + 1);
  }
  const marked = [...counts.values()].reduce((sum, count) => sum + count, 0);
  if (marked === 0) return '';
  const reasons = [...counts].map(([kind, count]) => DOUBT_SUMMARIES[kind](count));
  return `${marked === 1 ? '1 sentence is' : `${marked} sentences are`} underlined: ${reasons.join('; ')}.`;
}

// Why a sentence the model did not run on has no attention.
const WRITTEN_WITHOUT_MODEL = {
  set_phrase: 'A set phrase (a greeting, a letter’s formula or a label), written from Attend’s table, not by the model.',
  passed_through: 'Numbers, names or web addresses only, put in without the model.',
};

// A translation whose words the caption-model rules changed after the model wrote it.
const REWRITTEN = 'The caption-model rules changed the model’s words here (a final “?” or “!”, the opening case, or numbers, times, dates or titles written the translation’s way).';

function sentenceElement(translation, index, interactive) {
  const element = document.createElement('span');
  element.className = 'sentence';
  element.part = 'sentence';
  element.dataset.index = index;
  element.textContent = translation.text;
  const doubt = sentenceDoubt(translation);
  const withoutModel = WRITTEN_WITHOUT_MODEL[translation.status] ?? (translation.rewritten ? REWRITTEN : null);
  if (withoutModel) {
    element.title = withoutModel;
    element.dataset.withoutModel = translation.rewritten ? 'rewritten' : translation.status;
  }
  if (doubt) {
    element.classList.add('unsure');
    element.part.add('unsure');
    element.title = doubt.reason;
    element.dataset.doubt = doubt.kind;
  }
  if (interactive) {
    element.tabIndex = 0;
    element.setAttribute('role', 'button');
    const note = doubt?.reason ?? withoutModel;
    element.setAttribute('aria-label', `${translation.text}: show its attention${note ? ` (${note})` : ''}`);
  }
  return element;
}
