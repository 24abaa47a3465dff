/**
 * zod compiles object parsers with `new Function`, which the server's Content-Security-Policy
 * refuses (no 'unsafe-eval'); even its probe for that is reported as a violation. main.tsx imports
 * this module first, before any module builds a schema (zod decides when a schema is built).
 */
import { z } from 'zod';

z.config({ jitless: true });
