import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';

// Blueprint's overlays close with 300 ms transitions whose timers, still pending when a file's
// last test ends, could fire after its jsdom was torn down ("window is not defined", seen on a
// loaded CI machine). Each file waits them out before its environment goes.
const TRANSITIONS_MS = 400;

// vitest runs with globals off, so Testing Library cannot register its own clean-up.
afterEach(() => {
  cleanup();
  localStorage.clear();
});

afterAll(() => new Promise((resolve) => setTimeout(resolve, TRANSITIONS_MS)));
