import { describe, expect, it } from 'vitest';
import { clearEmoji, clearingEmoji } from './clearEmoji';

describe('clearEmoji', () => {
  it.each([
    ['Cold room 😀 A', 'Cold room  A'],
    ['👩🏽‍🔬 lab', ' lab'], // skin tone and joiner go with the emoji
    ['🇨🇳 flag', ' flag'],
    ['1️⃣ keycap', '1 keycap'],
    ['★ star ☎ phone ✈ ➜ →', ' star  phone   '],
    ['€ ok', '€ ok'], // a currency sign is not a pictograph
    ['price ¥100 ± 5 × 2 ÷ 1 © ®', 'price 100  5  2  1  '],
  ])('%s → %s', (typed, kept) => {
    expect(clearEmoji(typed)).toBe(kept);
  });

  it.each(['Müller Kühlhaus', 'Peña & Cía.', 'São Paulo', 'Склад №1', '冷库一号', '冷庫 ABC-123_x@y.z', 'Ελληνικά'])(
    'keeps letters of every language: %s',
    (text) => {
      expect(clearEmoji(text)).toBe(text);
    },
  );

  it('hands the cleared text to the form', () => {
    const seen: string[] = [];
    clearingEmoji((value) => seen.push(value))({ target: { value: 'A🔥B' } });
    expect(seen).toEqual(['AB']);
  });
});
