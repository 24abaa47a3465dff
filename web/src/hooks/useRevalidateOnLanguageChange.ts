import { useEffect, useRef } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** Rewrites the client-side messages on screen in the new language when the language changes. */
export function useRevalidateOnLanguageChange<V extends FieldValues>(form: UseFormReturn<V>): void {
  const { i18n } = useTranslation();
  const previous = useRef(i18n.language);
  useEffect(() => {
    if (previous.current === i18n.language) return;
    previous.current = i18n.language;
    const { errors } = form.formState;
    const shown = (Object.keys(errors) as FieldPath<V>[]).filter((name) => errors[name]?.type !== 'server');
    if (shown.length > 0) void form.trigger(shown);
  }, [form, i18n.language]);
}
