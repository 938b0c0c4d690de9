// A translated document as elements: each sentence a span (marked when the model is unsure of
// it, with the reason as its title and for screen readers), the text kept around the
// sentences as it is. Shared by the page and <attend-translator>.
import { sentenceDoubt } from './sentence-doubt.js';

// Fills `container` from translateDocument's {segments}; interactive: the sentences are
// buttons (focusable, named), for choosing one.
export function renderTranslatedDocument(container, segments, { interactive = false } = {}) {
  let index = 0;
  container.replaceChildren(...segments.map((segment) => {
    if (!segment.translation) return document.createTextNode(segment.source);
    return sentenceElement(segment.translation, index++, interactive);
  }));
}

function sentenceElement(translation, index, interactive) {
  const element = document.createElement('span');
  element.className = 'sentence';
  element.part = 'sentence';
  element.dataset.index = index;
  element.textContent = translation.text;
  const doubt = sentenceDoubt(translation);
  if (doubt) {
    element.classList.add('unsure');
    element.part.add('unsure');
    element.title = doubt;
    const note = document.createElement('span');
    note.className = 'visually-hidden';
    note.textContent = ` (${doubt})`;
    element.append(note);
  }
  if (interactive) {
    element.tabIndex = 0;
    element.setAttribute('role', 'button');
    element.setAttribute('aria-label', `${translation.text}: show its attention${doubt ? ` (${doubt})` : ''}`);
  }
  return element;
}
