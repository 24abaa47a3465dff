/**
 * The spec's clear-emoji directive (seed 000 section 5): text inputs of names, remarks and
 * addresses drop emoji, pictographic symbol ranges and the Latin-1 symbols as the user types or
 * pastes, so what is saved is plain text every SMS gateway, invoice and printer can carry.
 *
 * "Latin-1 extended" is read as Latin-1's symbols (¡ to ¿, × and ÷), not its letters: the console
 * speaks German, Spanish and Portuguese, and "Müller", "Peña" or "São Paulo" must stay as typed.
 */

// Extended_Pictographic covers emoji and most pictographs; the rest are what builds emoji from
// parts (joiner, variation selectors, skin tones, keycap, tags, regional-indicator flags).
const EMOJI = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|[\u{1F1E6}-\u{1F1FF}]|[\u{E0020}-\u{E007F}]|\u200D|\uFE0E|\uFE0F|\u20E3/gu;
// Symbol blocks an emoji keyboard offers besides: arrows, technical, enclosed alphanumerics,
// box drawing to dingbats, supplemental arrows and CJK-less symbol blocks, mahjong to symbols.
const SYMBOLS = /[\u2190-\u21FF\u2300-\u23FF\u2460-\u24FF\u2500-\u27BF\u2900-\u297F\u2B00-\u2BFF\u{1F000}-\u{1FAFF}]/gu;
const LATIN1_SYMBOLS = /[\u00A1-\u00BF\u00D7\u00F7]/g;

/** The text without emoji and the symbols above. */
export function clearEmoji(text: string): string {
  return text.replace(EMOJI, '').replace(SYMBOLS, '').replace(LATIN1_SYMBOLS, '');
}

/** What clearingEmoji reads of the input or textarea that changed. */
export interface EditedField {
  value: string;
  selectionEnd?: number | null;
  setSelectionRange?: (start: number, end: number) => void;
}

/**
 * An input's change handler that stores the cleared text (react-hook-form's `field.onChange`).
 * When something was dropped, the field gets the cleared text and its caret back here, where it
 * stood less what was dropped before it: left to React, the new value would put the caret at the
 * end, and typing in the middle of a name would go on at its end. React then finds the field
 * already holding the stored value and leaves it, caret included.
 */
export function clearingEmoji(onChange: (value: string) => void): (event: { target: EditedField }) => void {
  return ({ target }) => {
    const typed = target.value;
    const cleared = clearEmoji(typed);
    if (cleared !== typed) {
      const caret = target.selectionEnd;
      target.value = cleared;
      if (typeof caret === 'number' && target.setSelectionRange) {
        // Cleared piecewise alike: the patterns match single code points, never across the caret.
        const at = clearEmoji(typed.slice(0, caret)).length;
        target.setSelectionRange(at, at);
      }
    }
    onChange(cleared);
  };
}
