/**
 * An allow-list HTML sanitizer for rich text written by operators (notices): only a safe subset of
 * tags and attributes survives; scripts, embedded content, event handlers, `javascript:` and other
 * unsafe URLs, and risky styles are dropped. Unknown tags are unwrapped (their text is kept).
 */

const ALLOWED_TAGS = new Set([
  'a', 'b', 'blockquote', 'br', 'caption', 'code', 'del', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'hr',
  'i', 'img', 'ins', 'li', 'mark', 'ol', 'p', 'pre', 's', 'small', 'span', 'strong', 'sub', 'sup', 'table',
  'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
]);

/** Removed with everything inside them. */
const DROPPED_TAGS = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'svg', 'math', 'template',
  'noscript', 'noembed', 'noframes', 'form', 'input', 'button', 'select', 'textarea', 'option', 'link', 'meta',
  'base', 'title', 'head', 'audio', 'video', 'source', 'track', 'canvas', 'portal',
]);

const GLOBAL_ATTRIBUTES = new Set(['title', 'style', 'dir', 'lang']);
const TAG_ATTRIBUTES: Record<string, ReadonlySet<string>> = {
  a: new Set(['href', 'target']),
  img: new Set(['src', 'alt', 'width', 'height']),
  td: new Set(['colspan', 'rowspan', 'align']),
  th: new Set(['colspan', 'rowspan', 'align', 'scope']),
  ol: new Set(['start', 'type']),
  p: new Set(['align']),
  div: new Set(['align']),
};

const STYLE_PROPERTIES = new Set([
  'color', 'background-color', 'text-align', 'font-weight', 'font-style', 'font-size', 'text-decoration',
  'text-decoration-line', 'line-height', 'margin-left', 'padding-left', 'text-indent', 'vertical-align',
]);

const LINK_SCHEMES = new Set(['http:', 'https:', 'mailto:', 'tel:']);
const IMAGE_DATA = /^data:image\/(png|jpeg|jpg|gif|webp);base64,[a-z0-9+/=\s]+$/i;

/** A URL is safe when it is relative or uses one of the allowed schemes (images: also raster data URLs). */
export function isSafeUrl(value: string, forImage = false): boolean {
  // Browsers ignore control characters and spaces inside a scheme ("java\tscript:"), so compare without them.
  const compact = value.replace(/[\p{Cc} ]/gu, ''); // Cc: U+0000-001F and U+007F-009F
  const scheme = /^([a-z][a-z0-9+.-]*:)/i.exec(compact)?.[1]?.toLowerCase();
  if (scheme === undefined) return true; // relative
  if (forImage && scheme === 'data:') return IMAGE_DATA.test(value.trim());
  return forImage ? scheme === 'http:' || scheme === 'https:' : LINK_SCHEMES.has(scheme);
}

/** Keeps the declarations of harmless properties whose values cannot load or run anything. */
export function sanitizeStyle(style: string): string {
  return style
    .split(';')
    .map((declaration) => {
      const colon = declaration.indexOf(':');
      if (colon < 0) return null;
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      if (!STYLE_PROPERTIES.has(property) || value === '') return null;
      if (/url\s*\(|expression|javascript:|[\\<>@]|\/\*/i.test(value)) return null;
      return `${property}: ${value}`;
    })
    .filter((declaration): declaration is string => declaration !== null)
    .join('; ');
}

function cleanAttributes(source: Element, target: Element): void {
  const tag = target.tagName.toLowerCase();
  const allowed = TAG_ATTRIBUTES[tag];
  for (const { name, value } of Array.from(source.attributes)) {
    const attribute = name.toLowerCase();
    if (!GLOBAL_ATTRIBUTES.has(attribute) && !allowed?.has(attribute)) continue;
    if (attribute === 'style') {
      const style = sanitizeStyle(value);
      if (style) target.setAttribute('style', style);
    } else if (attribute === 'href') {
      if (isSafeUrl(value)) target.setAttribute('href', value.trim());
    } else if (attribute === 'src') {
      if (isSafeUrl(value, true)) target.setAttribute('src', value.trim());
    } else if (attribute === 'target') {
      if (value === '_blank') target.setAttribute('target', '_blank');
    } else {
      target.setAttribute(attribute, value);
    }
  }
  if (tag === 'a' && target.getAttribute('target') === '_blank') target.setAttribute('rel', 'noopener noreferrer');
}

function cleanChildren(source: Node, target: Node, doc: Document): void {
  source.childNodes.forEach((child) => {
    if (child.nodeType === Node.TEXT_NODE) {
      target.appendChild(doc.createTextNode(child.textContent ?? ''));
      return;
    }
    if (child.nodeType !== Node.ELEMENT_NODE) return; // comments, processing instructions
    const element = child as Element;
    const tag = element.tagName.toLowerCase();
    if (DROPPED_TAGS.has(tag)) return;
    if (!ALLOWED_TAGS.has(tag)) {
      cleanChildren(element, target, doc); // unwrap: keep the text, lose the element
      return;
    }
    const copy = doc.createElement(tag);
    cleanAttributes(element, copy);
    cleanChildren(element, copy, doc);
    target.appendChild(copy);
  });
}

/** The safe subset of `html`, as HTML text. */
export function sanitizeHtml(html: string): string {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  const out = document.implementation.createHTMLDocument('');
  const container = out.createElement('div');
  cleanChildren(parsed.body, container, out);
  return container.innerHTML;
}
