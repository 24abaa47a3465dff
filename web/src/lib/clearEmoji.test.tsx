import { InputGroup, TextArea } from '@blueprintjs/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useController, useForm } from 'react-hook-form';
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

  it('keeps the caret where it was, less what was dropped before it', () => {
    const field = document.createElement('input');
    field.value = 'Cold★ room';
    field.setSelectionRange(5, 5); // just after the star, as typed
    const seen: string[] = [];
    clearingEmoji((value) => seen.push(value))({ target: field });
    expect(seen).toEqual(['Cold room']);
    expect([field.value, field.selectionStart, field.selectionEnd]).toEqual(['Cold room', 4, 4]);
  });
});

/** A name field of a react-hook-form form, drawn as the console's forms draw theirs. */
function NameForm({ multiline = false }: { multiline?: boolean }) {
  const { control } = useForm({ defaultValues: { name: 'Cold room' } });
  const { field: { ref, ...field } } = useController({ control, name: 'name' });
  const props = { ...field, inputRef: ref, 'aria-label': 'Name', onChange: clearingEmoji(field.onChange) };
  return multiline ? <TextArea {...props} /> : <InputGroup {...props} />;
}

describe('typing in the middle of a name', () => {
  it.each([false, true])('goes on where the caret is when an emoji is dropped (multi-line: %s)', async (multiline) => {
    const user = userEvent.setup();
    render(<NameForm multiline={multiline} />);
    const field = screen.getByLabelText<HTMLInputElement>('Name');
    await user.click(field);
    field.setSelectionRange(4, 4); // after "Cold"
    await user.keyboard('X★Y');
    expect(field).toHaveValue('ColdXY room');
    expect([field.selectionStart, field.selectionEnd]).toEqual([6, 6]);
    await user.paste('A😀B');
    await user.keyboard('Z');
    expect(field).toHaveValue('ColdXYABZ room');
    expect(field.selectionStart).toBe(9);
  });
});
