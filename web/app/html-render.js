// A translated HTML fragment (Translator.translateHTML) shown in a container: parsed inert (a
// <template>) and cleaned of what would run once inserted (script and frame elements, on*
// event attributes, javascript: URLs), since the source's own handlers already ran in its
// page. Markup and text are otherwise shown as the translation gives them.
const RUNNABLE_ELEMENTS = 'script, iframe, frame, object, embed, noscript';
const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction', 'xlink:href']);

export function renderTranslatedHtml(container, html) {
  const template = document.createElement('template');
  template.innerHTML = html;
  for (const element of template.content.querySelectorAll(RUNNABLE_ELEMENTS)) element.remove();
  for (const element of template.content.querySelectorAll('*')) {
    for (const { name, value } of [...element.attributes]) {
      const runs = name.toLowerCase().startsWith('on')
        || (URL_ATTRIBUTES.has(name.toLowerCase()) && /^\s*javascript:/i.test(value));
      if (runs) element.removeAttribute(name);
    }
  }
  container.replaceChildren(template.content);
}
