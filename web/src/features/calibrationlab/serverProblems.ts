import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '@/lib/http';
import { sortError } from '@/lib/serverErrors';

/**
 * Puts a refusal's field messages on the form (the server's field names turned into the form's by
 * `toForm`, null for one the form does not show) and returns what is left for the whole form.
 */
export function placeProblems<V extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<V>,
  toForm: (serverPath: string) => string | null,
  translate: (key: string) => string,
): string | null {
  if (!(error instanceof ApiError) || !error.errors) return sortError(error, [], {}, translate).form;
  const rest: string[] = [];
  let first = true;
  for (const [name, messages] of Object.entries(error.errors)) {
    const path = toForm(name);
    if (path === null) rest.push(messages.join(' '));
    else {
      setError(path as Path<V>, { type: 'server', message: messages.join(' ') }, { shouldFocus: first });
      first = false;
    }
  }
  return rest.length ? rest.join(' ') : first ? error.message : null;
}
