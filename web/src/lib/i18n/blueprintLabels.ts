/**
 * Blueprint writes a few screen-reader labels in English and offers no prop for them: the close
 * button of Dialog, Drawer and Toast (`aria-label="Close"`) and the caret of HTMLSelect (an SVG
 * `<title>Open dropdown</title>`) and the cross of a removable Tag (`aria-label="Remove tag"`). A blind user of the Russian console would hear English there.
 * One observer on the document replaces them with the current language's words as they appear,
 * and again when the language changes, so no screen (ours or one added later) has to remember it.
 */
import i18next from 'i18next';

/** Blueprint's English label, the catalogue key (common namespace) that replaces it, and where. */
const LABELS = [
  { english: 'Close', key: 'common:close', selector: '.bp6-dialog-close-button, .bp6-toast .bp6-button' },
  { english: 'Open dropdown', key: 'common:openDropdown', selector: '.bp6-html-select svg' },
  { english: 'Remove tag', key: 'common:removeTag', selector: '.bp6-tag-remove' },
] as const;

const ORIGINAL = 'data-jc-label';

/** `root` itself when it matches, and every element under it that does. */
function matching(root: ParentNode, selector: string): Element[] {
  const inside = [...root.querySelectorAll<Element>(selector)];
  return root instanceof Element && root.matches(selector) ? [root, ...inside] : inside;
}

function localise(root: ParentNode): void {
  for (const { english, key, selector } of LABELS) {
    for (const element of matching(root, selector)) {
      if (element.tagName.toLowerCase() === 'svg') {
        const title = element.querySelector('title');
        if (!title) continue;
        const original = title.getAttribute(ORIGINAL) ?? title.textContent;
        if (original !== english) continue;
        title.setAttribute(ORIGINAL, english);
        const text = i18next.t(key);
        if (title.textContent !== text) title.textContent = text;
      } else {
        const original = element.getAttribute(ORIGINAL) ?? element.getAttribute('aria-label');
        if (original !== english) continue;
        element.setAttribute(ORIGINAL, english);
        const text = i18next.t(key);
        if (element.getAttribute('aria-label') !== text) element.setAttribute('aria-label', text);
      }
    }
  }
}

/** Starts localising Blueprint's built-in labels under `root`; returns the function that stops it. */
export function localiseBlueprintLabels(root: HTMLElement = document.body): () => void {
  localise(root);
  // Only what was added: a live page (the real-time panel, charts) changes the document often, and
  // searching all of it at each change would cost every change that much.
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) localise(node);
    }
  });
  observer.observe(root, { childList: true, subtree: true });
  const relabel = () => localise(root);
  i18next.on('languageChanged', relabel);
  return () => {
    observer.disconnect();
    i18next.off('languageChanged', relabel);
  };
}
