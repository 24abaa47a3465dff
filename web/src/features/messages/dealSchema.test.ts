import { describe, expect, it } from 'vitest';
import { dealBody, dealSchema, RESULT_MAX, resultOf } from './dealSchema';

/** Messages come back as their keys, so a test can say which rule spoke. */
const t = (key: string) => key;
const schema = dealSchema(t);
const issues = (value: unknown) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('the handling form', () => {
  it('needs a handling', () => {
    expect(issues({ handling: null, result: '' })).toEqual(['handling: deal.handlingRequired']);
    expect(issues({ handling: 4, result: '' })).toEqual(['handling: deal.handlingRequired']);
    expect(issues({ handling: 3, result: '' })).toEqual([]);
  });

  it('takes a result of up to 50 characters as the server counts them, around spaces', () => {
    expect(issues({ handling: 1, result: 'x'.repeat(RESULT_MAX) })).toEqual([]);
    expect(issues({ handling: 1, result: `  ${'冷'.repeat(RESULT_MAX)}  ` })).toEqual([]);
    expect(issues({ handling: 1, result: '😀'.repeat(RESULT_MAX) })).toEqual([]);
    expect(issues({ handling: 1, result: 'x'.repeat(RESULT_MAX + 1) })).toEqual(['result: deal.resultTooLong']);
  });

  it('sends the result trimmed, and none for an empty one', () => {
    expect(resultOf('  done  ')).toBe('done');
    expect(resultOf('   ')).toBeNull();
    expect(dealBody(4, { handling: 2, result: ' false alarm ' })).toEqual({ id: 4, handling: 2, result: 'false alarm' });
    expect(dealBody(4, { handling: 3, result: '' })).toEqual({ id: 4, handling: 3, result: null });
    expect(() => dealBody(4, { handling: null, result: '' })).toThrow();
  });
});
