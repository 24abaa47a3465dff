import { Button, Callout } from '@blueprintjs/core';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { loadSessionPermissions } from '@/app/effects';
import { useCountdown } from '@/hooks/useCountdown';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { CODE_TYPES, fetchSendCode, RESEND_SECONDS } from '@/lib/api/sendCode';
import { editionConfig } from '@/lib/config';
import { emailProblem, phoneProblem } from '@/lib/contacts';
import { notify } from '@/lib/notify';
import { BUSINESS, showError, waitSecondsOf } from '@/lib/serverErrors';
import { changeCredentials } from '../api/account';
import { Field } from './Field';

type Kind = 'password' | 'phone' | 'email';

interface CredentialValues {
  accountPassword: string;
  newPassword: string;
  confirmPassword: string;
  target: string;
  code: string;
}

const FIELDS = ['accountPassword', 'newPassword', 'confirmPassword', 'target', 'code'] as const;
const WRONG_PASSWORD = 1008;

/**
 * A new password, or a new phone number or e-mail address, always confirmed with the current
 * password; a new contact replaces the old only with the code sent to it.
 */
export function CredentialsForm({ kind, info }: { kind: Kind; info: AccountInfo }) {
  const { t } = useTranslation('account');
  const form = useForm<CredentialValues>({
    defaultValues: { accountPassword: '', newPassword: '', confirmPassword: '', target: '', code: '' },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { remaining, start } = useCountdown();
  const current = kind === 'phone' ? info.baseAccount.phone : kind === 'email' ? info.baseAccount.email : null;

  const contactProblem = (value: string): string | null => {
    const key = kind === 'phone' ? phoneProblem(value, editionConfig().edition) : emailProblem(value);
    return key ? t(key) : null;
  };

  const sendCode = async () => {
    setFailure(null);
    if (kind === 'password') return;
    const target = form.getValues('target').trim();
    const problem = contactProblem(target);
    if (problem) return form.setError('target', { message: problem });
    try {
      await fetchSendCode({ channel: kind, target, type: CODE_TYPES.bind });
      setSentTo(target);
      start(RESEND_SECONDS);
    } catch (error) {
      const wait = waitSecondsOf(error, RESEND_SECONDS);
      if (wait) start(wait);
      setFailure(showError(error, form.setError, FIELDS, { [BUSINESS.contactBound]: 'target' }, t));
    }
  };

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    let invalid = false;
    const need = (name: keyof CredentialValues, ok: boolean, key: string) => {
      if (!ok) {
        form.setError(name, { message: t(key) });
        invalid = true;
      }
    };
    need('accountPassword', values.accountPassword !== '', 'security.currentRequired');
    if (kind === 'password') {
      need('newPassword', values.newPassword !== '', 'security.newRequired');
      need('confirmPassword', values.confirmPassword.trim() === values.newPassword.trim(), 'security.confirmMismatch');
    } else {
      const problem = contactProblem(values.target.trim());
      if (problem) {
        form.setError('target', { message: problem });
        invalid = true;
      }
      need('code', /^\d{4,8}$/.test(values.code.trim()), 'security.codeRequired');
    }
    if (invalid) return;
    try {
      await changeCredentials(kind === 'email' ? 'email' : 'phone', kind === 'password'
        ? { accountPassword: values.accountPassword, newPassword: values.newPassword, confirmPassword: values.confirmPassword }
        : { accountPassword: values.accountPassword, target: values.target.trim(), code: values.code.trim() });
    } catch (error) {
      const byCode = { [WRONG_PASSWORD]: 'accountPassword', [BUSINESS.wrongCode]: 'code', [BUSINESS.contactBound]: 'target' } as const;
      const renamed = renameContactErrors(error, kind);
      setFailure(showError(renamed, form.setError, FIELDS, byCode, t));
      return;
    }
    form.reset();
    setSentTo(null);
    notify.success(t(`security.${kind}Saved`));
    await loadSessionPermissions().catch(() => undefined);
  });

  return (
    <form onSubmit={(event) => void submit(event)} noValidate className="jc-account-form" data-testid={`credentials-${kind}`}>
      {kind === 'password' ? (
        <>
          <Field control={form.control} name="newPassword" label={t('security.newPassword')} type="password" maxLength={20}
            autoComplete="new-password" hint={t('security.passwordHint')} />
          <Field control={form.control} name="confirmPassword" label={t('security.confirmPassword')} type="password"
            maxLength={20} autoComplete="new-password" />
        </>
      ) : (
        <>
          <p className="jc-account-current">{t(`security.current.${kind}`, { value: current || t('security.none') })}</p>
          <Field control={form.control} name="target" label={t(`security.new.${kind}`)} type={kind === 'phone' ? 'tel' : 'email'}
            maxLength={kind === 'phone' ? 20 : 200} autoComplete={kind === 'phone' ? 'tel' : 'email'} />
          <Field control={form.control} name="code" label={t('security.code')} maxLength={8} autoComplete="one-time-code"
            hint={sentTo ? t('security.codeSent', { target: sentTo }) : null}
            rightElement={
              <Button variant="minimal" disabled={remaining > 0} onClick={() => void sendCode()} data-testid="send-code"
                text={remaining > 0 ? t('security.resend', { seconds: remaining }) : t('security.sendCode')} />
            } />
        </>
      )}
      <Field control={form.control} name="accountPassword" label={t('security.currentPassword')} type="password"
        maxLength={128} autoComplete="current-password" />
      {failure && <Callout intent="danger" compact>{failure}</Callout>}
      <Button type="submit" intent="primary" text={t('save')} loading={form.formState.isSubmitting} data-testid={`save-${kind}`} />
    </form>
  );
}

/** The server names the new contact `phone` or `email`; on this form it is the `target` field. */
function renameContactErrors(error: unknown, kind: Kind): unknown {
  const errors = (error as { errors?: Record<string, string[]> } | null)?.errors;
  if (kind === 'password' || !errors?.[kind]) return error;
  errors.target = errors[kind]!;
  delete errors[kind];
  return error;
}
