import '@testing-library/jest-dom/vitest';
import { Icons } from '@blueprintjs/icons';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, expect } from 'vitest';

// Blueprint's overlays close with 300 ms transitions whose timers, still pending when a file's
// last test ends, could fire after its jsdom was torn down ("window is not defined", seen on a
// loaded CI machine). Each file waits them out before its environment goes.
const TRANSITIONS_MS = 400;

// findBy* and waitFor wait up to 5 s instead of 1 s: on a machine whose two cores also run the
// Python suites and the browser, a tooltip's hover delay alone has taken longer than a second.
// A test still fails when what it waits for never comes; it only fails later.
configure({ asyncUtilTimeout: 5000 });

// Every icon is an imported component (lib/icons.ts): an icon named by a string would, built, find
// no paths (vite.config.ts, blueprintIconsByNameOff) and fall back to the icon font. Blueprint asks
// its loader for such a name: here the loader notes it, and the test that drew it fails.
const iconsNamedByString: string[] = [];
Icons.setLoaderOptions({
  loader: async (name) => {
    iconsNamedByString.push(name);
    throw new Error(`icon "${name}" named by a string`);
  },
});

// vitest runs with globals off, so Testing Library cannot register its own clean-up.
afterEach(() => {
  cleanup();
  localStorage.clear();
  expect(iconsNamedByString.splice(0), 'icons named by a string, not imported').toEqual([]);
});

// Most files share their worker's page (vite.config.ts, isolate off): what a file left in it, a toast
// or an overlay's portal, goes with it, so the next file starts from an empty page.
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, TRANSITIONS_MS));
  document.body.replaceChildren();
});
