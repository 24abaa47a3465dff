import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from './notify';

/** Lets the toaster mount and render what it was given. */
async function settle(ms = 500) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The toasts on screen (not those on their way out). */
const toasts = () =>
  [...document.querySelectorAll('.bp6-toast')].filter((toast) => !toast.className.includes('exit')).map((toast) => toast.textContent);

afterEach(() => {
  vi.useRealTimers();
});

describe('notify', () => {
  it('shows one toast per message however often it is said, and one for each other message', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: false });
    for (let i = 0; i < 4; i += 1) notify.error('Incorrect user name or password', 'Error');
    await settle();
    expect(toasts()).toEqual(['Error: Incorrect user name or password']);

    notify.error('Incorrect user name or password', 'Error'); // said again while on screen: still one
    notify.error('The price has changed', 'Error');
    notify.success('Incorrect user name or password'); // another kind of message is another toast
    await settle();
    expect(toasts().sort()).toEqual(['Error: Incorrect user name or password', 'Error: The price has changed', 'Incorrect user name or password']);
  });
});
