/**
 * zod compiles object parsers with `new Function`, which the server's Content-Security-Policy
 * refuses (no 'unsafe-eval'); even its probe for that is reported as a violation, and an object
 * schema probes as it is built. main.tsx imports this module first, and the build puts it in zod's
 * own chunk (vite.config.ts): a shared chunk that builds schemas as it loads runs before the
 * entry's body, never before the chunk it imports zod from.
 */
import { z } from 'zod';

z.config({ jitless: true });
