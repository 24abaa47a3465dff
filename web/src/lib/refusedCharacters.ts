/**
 * What the server refuses in a name or a short text (src/core/shared/text.py): emoji and other
 * symbols, control, format, private-use and surrogate characters, variation selectors. The
 * server's rule decides; forms use this only to say so while the user types.
 */
const REFUSED = /[\p{So}\p{Cc}\p{Cf}\p{Co}\p{Cs}\uFE00-\uFE0F]/u;

export const hasRefusedCharacters = (text: string): boolean => REFUSED.test(text);
