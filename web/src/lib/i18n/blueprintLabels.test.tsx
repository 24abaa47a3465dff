import { Dialog, HTMLSelect, Tag } from '@blueprintjs/core';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from './index';
import { localiseBlueprintLabels } from './blueprintLabels';

let stop: (() => void) | null = null;
beforeAll(async () => {
  await initI18n('en-US', 'en-US');
});
afterEach(async () => {
  stop?.();
  stop = null;
  cleanup();
  await changeLanguage('en-US');
});

const settle = () => act(() => new Promise((resolve) => setTimeout(resolve, 0)));

describe("Blueprint's built-in labels", () => {
  it('read in the current language, also for dialogs opened later and after a language change', async () => {
    await changeLanguage('ru-RU');
    stop = localiseBlueprintLabels();
    render(<Dialog isOpen title="Заголовок" onClose={() => {}}>x</Dialog>);
    await settle();
    expect(screen.getByRole('button', { name: 'Закрыть' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();

    await act(() => changeLanguage('de-DE'));
    await settle();
    expect(screen.getByRole('button', { name: 'Schließen' })).toBeInTheDocument();
  });

  it('names the caret of a select in the current language', async () => {
    await changeLanguage('zh-CN');
    stop = localiseBlueprintLabels();
    const { container } = render(<HTMLSelect options={['a', 'b']} />);
    await settle();
    expect(container.querySelector('.bp6-html-select svg title')?.textContent).toBe('展开下拉列表');
  });

  it('names the cross of a removable tag in the current language', async () => {
    await changeLanguage('ru-RU');
    stop = localiseBlueprintLabels();
    render(<Tag onRemove={() => {}}>Холодильник</Tag>);
    await settle();
    expect(screen.getByRole('button', { name: 'Убрать' })).toBeInTheDocument();
  });

  it('leaves labels of our own alone', async () => {
    await changeLanguage('ru-RU');
    stop = localiseBlueprintLabels();
    render(<Dialog isOpen title="T" onClose={() => {}}><button type="button" aria-label="Mine" className="bp6-button">m</button></Dialog>);
    await settle();
    expect(screen.getByRole('button', { name: 'Mine' })).toBeInTheDocument();
  });
});
