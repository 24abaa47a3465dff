/**
 * How the console's forms validate: as the user types, from the first keystroke, so that a name
 * one character too long says so at once instead of at Save (spec seed 001 section 5's lengths),
 * and again on every change after that. Spread into `useForm({ ...LIVE_VALIDATION, ... })`.
 */
export const LIVE_VALIDATION = { mode: 'onChange', reValidateMode: 'onChange' } as const;
