import { useCallback, useEffect, useState } from 'react';
import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RESEND_SECONDS, useSendCode, type CodeType } from '@/lib/api/sendCode';
import type { Channel } from '../schemas';
import { BUSINESS, showError, waitSecondsOf } from '@/lib/serverErrors';
import { useCountdown } from '@/hooks/useCountdown';

/** The "send code" button's state, for CodeField. */
export interface CodeSender {
  send: () => Promise<void>;
  remaining: number;
  sending: boolean;
  sentOnce: boolean;
  /** Where the last code went ("sent to ..."), or null. */
  sentNote: string | null;
  /** Why the last code could not be sent, or null. */
  sendError: string | null;
}

/**
 * Sends a code to the form's phone or e-mail field once that field passes its rule, then counts
 * down 60 s. A contact the server refuses (422, already bound) is marked on the contact field;
 * "asked again too soon" shows the server's message and counts down the seconds it names.
 */
export function useCodeSender<V extends FieldValues>(
  form: UseFormReturn<V>,
  contact: FieldPath<V> & Channel,
  type: CodeType,
): CodeSender {
  const { t } = useTranslation('auth');
  const { remaining, start, reset } = useCountdown();
  const mutation = useSendCode();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const [sentOnce, setSentOnce] = useState(false);

  useEffect(() => {
    // Another channel: another address, with its own limit.
    setSentTo(null);
    setSendError(null);
    setSentOnce(false);
    reset();
  }, [contact, reset]);

  const send = useCallback(async () => {
    setSendError(null);
    if (!(await form.trigger(contact))) return;
    const target = String(form.getValues(contact)).trim();
    try {
      await mutation.mutateAsync({ channel: contact, target, type });
      setSentTo(target);
      setSentOnce(true);
      start(RESEND_SECONDS);
      form.clearErrors('code' as FieldPath<V>);
    } catch (error) {
      setSentTo(null);
      const wait = waitSecondsOf(error, RESEND_SECONDS);
      if (wait) start(wait);
      setSendError(showError(error, form.setError, [contact], { [BUSINESS.contactBound]: contact }, t));
    }
  }, [contact, form, mutation, start, t, type]);

  const sentNote = sentTo ? t(contact === 'phone' ? 'code.sentPhone' : 'code.sentEmail', { target: sentTo }) : null;
  return { send, remaining, sending: mutation.isPending, sentOnce, sentNote, sendError };
}
