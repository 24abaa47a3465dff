/**
 * The electronic signature (21 CFR Part 11): one dialog for every change that must be signed, the
 * FDA page's switch and reports as well as an alarm's handling and a device's parameters.
 *
 * It asks for the user name only when the server says the next signature needs it (a session's
 * first, or one after the re-authentication window: 11.200(a)(1)), always for the password, for the
 * meaning (or an endorsement, which carries its own) and for a reason; it says that signing is the
 * legally binding equivalent of a handwritten signature (11.100(c)). Whatever the signing call
 * refuses (wrong password and the tries left, a lockout, an endorsement that does not allow the
 * signer) is shown here, and the signing state is read again.
 *
 * useSigning() holds the dialog and runs a call with the signature it collects: `sign` always asks,
 * `signIfNeeded` asks when FDA is known to be on for the record, else tries the call unsigned and asks
 * when the server answers 428.
 */
import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, Icon, InputGroup, TextArea } from '@blueprintjs/core';
import { EndorsedIcon, ErrorIcon, InfoSignIcon, LockIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useCallback, useMemo, useState, type ReactElement } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { lengthOf } from '@/lib/alarmValues';
import {
  FDA_LIMITS, FDA_READ, fdaKeys, fdaOnFor, fetchEndorsements, MEANINGS, SIGNATURE_REQUIRED, signatureNeeds, useFdaStatus, useSigningState,
  type Endorsement, type Meaning, type RecordType, type Signature,
} from '@/lib/api/fda';
import { ApiError, CancelledError, NetworkError, requestTimeZone } from '@/lib/http/index';
import { LIVE_VALIDATION } from '@/lib/forms';
import { usePermissions } from '@/lib/permissions';
import { formatInstant } from '@/lib/units';
import './signatures.css';

/** What a signature is asked for. */
export interface SigningRequest {
  /** The dialog's title; "Electronic signature" without one. */
  title?: string;
  /** What is signed, as the signer reads it (a device and its alarm, a report and its period). */
  label?: string;
  /** Why the signature is asked for; the server's 428 message, or a general sentence. */
  intro?: string;
  /** Endorsements for this record type are offered beside the meanings. */
  recordType?: RecordType;
  /** The meanings offered (all without). */
  meanings?: readonly Meaning[];
  /** The meaning chosen at first. */
  meaning?: Meaning;
  /** The reason written at first (an alarm's handling result). */
  reason?: string;
  reasonRequired?: boolean;
  /** The sign button's text. */
  submitText?: string;
}

export interface SignatureDialogProps {
  /** Nothing shows without one. */
  request: SigningRequest | null;
  /** Runs the signed call; a rejection is shown in the dialog, which stays open. */
  onSign: (signature: Signature) => Promise<unknown>;
  onCancel: () => void;
}

/** The dialog as a form: its own state starts afresh with each request. */
export function SignatureDialog({ request, onSign, onCancel }: SignatureDialogProps) {
  const { t } = useTranslation('components');
  return (
    <Dialog isOpen={request !== null} onClose={onCancel} title={request?.title ?? t('signature.title')} icon={<EndorsedIcon />}
      className="jc-sign-dialog" canOutsideClickClose={false}>
      {request && <SignatureForm request={request} onSign={onSign} onCancel={onCancel} />}
    </Dialog>
  );
}

const optional = (text: string) => text.trim() || undefined;

function signatureFormSchema(t: TFunction, needsUserName: boolean, reasonRequired: boolean) {
  const max = (limit: number) => (value: string) => lengthOf(value.trim()) <= limit;
  return z.object({
    userName: z.string()
      .refine((value) => !needsUserName || value.trim() !== '', t('signature.error.userName'))
      .refine(max(FDA_LIMITS.userName), t('signature.error.tooLong', { max: FDA_LIMITS.userName })),
    password: z.string()
      .min(1, t('signature.error.password'))
      .refine((value) => lengthOf(value) <= FDA_LIMITS.password, t('signature.error.tooLong', { max: FDA_LIMITS.password })),
    choice: z.string().min(1, t('signature.error.meaning')),
    reason: z.string()
      .refine((value) => !reasonRequired || value.trim() !== '', t('signature.error.reason'))
      .refine(max(FDA_LIMITS.reason), t('signature.error.tooLong', { max: FDA_LIMITS.reason })),
  });
}
type SignatureForm = z.infer<ReturnType<typeof signatureFormSchema>>;

/** A meaning is chosen as `m:approved`, an endorsement as `e:12`. */
export function signatureOf(form: SignatureForm, withUserName: boolean, timeZone: string): Signature {
  const [kind, value] = [form.choice.slice(0, 2), form.choice.slice(2)];
  return {
    ...(withUserName && optional(form.userName) ? { userName: form.userName.trim() } : {}),
    password: form.password,
    ...(kind === 'e:' ? { endorsementId: Number(value) } : { meaning: value as Meaning }),
    ...(optional(form.reason) ? { reason: form.reason.trim() } : {}),
    timeZone,
  };
}

/** The words of a refusal: the server's message and its field messages, else the client's own. */
export function refusalText(error: unknown, t: TFunction): string | null {
  if (error instanceof CancelledError) return null;
  if (error instanceof NetworkError) return t(error.reason === 'timeout' ? 'common:http.requestTimeout' : 'common:http.networkError');
  if (!(error instanceof ApiError)) return t('common:http.errorMessage');
  const flat = (node: unknown): string[] =>
    typeof node === 'string' ? [node] : Array.isArray(node) ? node.flatMap(flat) : node && typeof node === 'object' ? Object.values(node).flatMap(flat) : [];
  const details = flat(error.errors ?? {}).filter((text) => text !== error.message);
  return [error.message, ...details].join(' ');
}

/** The endorsements the caller may choose for a record type: those of each subject with FDA on. */
function useEndorsementChoices(recordType: RecordType | undefined): Endorsement[] {
  const allowed = usePermissions().has(FDA_READ);
  const subjects = useFdaStatus(allowed && recordType !== undefined).data?.subjects ?? [];
  const scopes = subjects.filter((s) => s.enabled).map((s) => (s.organizationId !== null ? { organizationId: s.organizationId } : {}));
  const pages = useQueries({
    queries: scopes.map((scope) => ({
      queryKey: fdaKeys.endorsements(scope),
      queryFn: () => fetchEndorsements(scope, 1, FDA_LIMITS.pageSize),
    })),
  });
  return pages.flatMap((page) => page.data?.data ?? []).filter((e) => recordType !== undefined && e.recordTypes.includes(recordType));
}

function SignatureForm({ request, onSign, onCancel }: { request: SigningRequest; onSign: SignatureDialogProps['onSign']; onCancel: () => void }) {
  const { t, i18n } = useTranslation('components');
  const queryClient = useQueryClient();
  const allowed = usePermissions().has(FDA_READ);
  const state = useSigningState(allowed);
  // Without the state (not allowed to read it, or it failed), both components are asked for: never too few.
  const needsUserName = state.data?.needsUserName ?? true;
  const reasonRequired = request.reasonRequired ?? false;
  const resolver = useMemo(() => zodResolver(signatureFormSchema(t, needsUserName, reasonRequired)), [t, needsUserName, reasonRequired]);
  const meanings = request.meanings ?? MEANINGS;
  const first = request.meaning ?? (meanings.length === 1 ? meanings[0] : undefined);
  const form = useForm<SignatureForm>({
    ...LIVE_VALIDATION,
    resolver,
    defaultValues: { userName: '', password: '', choice: first ? `m:${first}` : '', reason: request.reason ?? '' },
  });
  useRevalidateOnLanguageChange(form);
  const endorsements = useEndorsementChoices(request.recordType);
  const [failure, setFailure] = useState<string | null>(null);
  const locked = state.data?.locked ?? false;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSign(signatureOf(values, needsUserName, requestTimeZone()));
    } catch (error) {
      setFailure(refusalText(error, t));
      form.resetField('password');
      await queryClient.invalidateQueries({ queryKey: fdaKeys.signingState });
    }
  });

  const reason = form.watch('reason');
  const used = lengthOf(reason.trim());

  return (
    // The dialog may be opened from inside another form (React events cross portals): its submit stays its own.
    <form onSubmit={(event) => { event.stopPropagation(); void submit(event); }} noValidate data-testid="signature-dialog" aria-label={request.title ?? t('signature.title')}>
      <DialogBody>
        <Callout intent="primary" icon={<InfoSignIcon />} compact className="jc-sign-what" data-testid="signature-intro">
          <div>{request.intro ?? t('signature.intro')}</div>
          {request.label && <div className="jc-sign-what-label" data-testid="signature-label">{request.label}</div>}
        </Callout>
        {locked && (
          <Callout intent="danger" icon={<LockIcon />} compact className="jc-sign-what" data-testid="signature-locked">
            {state.data?.lockedUntil
              ? t('signature.locked', { time: formatInstant(state.data.lockedUntil, i18n.language, false) })
              : t('signature.lockedNoTime')}
          </Callout>
        )}
        {needsUserName ? (
          <Controller name="userName" control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
            <FormGroup label={t('signature.userName')} labelFor="sign-user" intent={fieldState.error ? 'danger' : 'none'}
              helperText={fieldState.error?.message ?? t('signature.userNameHint')}>
              <InputGroup {...field} inputRef={ref} id="sign-user" autoComplete="username" maxLength={FDA_LIMITS.userName + 10}
                intent={fieldState.error ? 'danger' : 'none'} data-testid="signature-user" autoFocus />
            </FormGroup>
          )} />
        ) : (
          <p className="jc-sign-as" data-testid="signature-as">
            {t('signature.signingAs', { userName: state.data?.userName ?? '' })}
          </p>
        )}
        <Controller name="password" control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('signature.password')} labelFor="sign-password" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup {...field} inputRef={ref} id="sign-password" type="password" autoComplete="current-password"
              intent={fieldState.error ? 'danger' : 'none'} data-testid="signature-password" autoFocus={!needsUserName} />
          </FormGroup>
        )} />
        <Controller name="choice" control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('signature.meaning')} labelFor="sign-meaning" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <HTMLSelect {...field} ref={ref} id="sign-meaning" fill data-testid="signature-meaning-select">
              {!first && <option value="">{t('signature.choose')}</option>}
              <optgroup label={t('signature.meaningGroup')}>
                {meanings.map((meaning) => <option key={meaning} value={`m:${meaning}`}>{t(`signature.meanings.${meaning}`)}</option>)}
              </optgroup>
              {endorsements.length > 0 && (
                <optgroup label={t('signature.endorsementGroup')}>
                  {endorsements.map((e) => <option key={e.id} value={`e:${e.id}`}>{`${e.name}: ${e.meaningText}`}</option>)}
                </optgroup>
              )}
            </HTMLSelect>
          </FormGroup>
        )} />
        <Controller name="reason" control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={reasonRequired ? t('signature.reason') : t('signature.reasonOptional')} labelFor="sign-reason"
            intent={fieldState.error ? 'danger' : 'none'}
            helperText={
              <span className="jc-sign-helper">
                <span>{fieldState.error?.message}</span>
                <span className={`jc-sign-counter${used > FDA_LIMITS.reason ? ' is-over' : ''}`}>
                  {t('signature.counter', { count: used, max: FDA_LIMITS.reason })}
                </span>
              </span>
            }>
            <TextArea {...field} inputRef={ref} id="sign-reason" fill rows={2} intent={fieldState.error ? 'danger' : 'none'}
              data-testid="signature-reason-input" />
          </FormGroup>
        )} />
        <p className="jc-sign-statement" data-testid="signature-statement">
          <Icon icon={<EndorsedIcon />} size={14} />
          <span>{t('signature.statement')}</span>
        </p>
        {failure && (
          <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="signature-error">{failure}</Callout>
        )}
      </DialogBody>
      <DialogFooter actions={
        <>
          <Button text={t('signature.cancel')} onClick={onCancel} />
          <Button type="submit" intent="primary" icon={<EndorsedIcon />} text={request.submitText ?? t('signature.sign')}
            loading={form.formState.isSubmitting} disabled={locked} data-testid="signature-submit" />
        </>
      } />
    </form>
  );
}

/**
 * Whether a change of this device must be signed, as far as the caller's FDA switches tell (null:
 * they do not, or the caller may not read them; the server's 428 then asks). Read only for a
 * caller who may change the device (`enabled`).
 */
export function useFdaRequired(device: { organizationId: number | null; ownerId: number }, enabled = true): boolean | null {
  const readable = usePermissions().has(FDA_READ) && enabled;
  return fdaOnFor(useFdaStatus(readable).data?.subjects, device);
}

interface Pending {
  request: SigningRequest;
  run: (signature: Signature) => Promise<void>;
  cancel: () => void;
}

export interface SignIfNeeded {
  /** FDA is known to be on (true) or off (false) for the record; null or absent: not known, try unsigned. */
  required?: boolean | null;
  /** Names the record (e.g. `device:12`): a 428 for it is remembered, so its next change asks first. */
  key?: string;
}

/**
 * The signature dialog and the calls it signs. Each returns the call's answer, or null when the
 * signer cancelled (nothing was changed then).
 */
export function useSigning(): {
  sign: <T>(request: SigningRequest, call: (signature: Signature) => Promise<T>) => Promise<T | null>;
  signIfNeeded: <T>(request: SigningRequest, call: (signature?: Signature) => Promise<T>, options?: SignIfNeeded) => Promise<T | null>;
  dialog: ReactElement;
} {
  const [pending, setPending] = useState<Pending | null>(null);

  const sign = useCallback(<T,>(request: SigningRequest, call: (signature: Signature) => Promise<T>) =>
    new Promise<T | null>((resolve) => {
      setPending({
        request,
        run: async (signature) => {
          const answer = await call(signature);
          setPending(null);
          resolve(answer);
        },
        cancel: () => {
          setPending(null);
          resolve(null);
        },
      });
    }), []);

  const signIfNeeded = useCallback(async <T,>(request: SigningRequest, call: (signature?: Signature) => Promise<T>,
    options: SignIfNeeded = {}): Promise<T | null> => {
    if (options.required === true || (options.key !== undefined && options.required !== false && signatureNeeds.known(options.key))) {
      return sign(request, call);
    }
    try {
      return await call(undefined);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== SIGNATURE_REQUIRED) throw error;
      if (options.key !== undefined) signatureNeeds.remember(options.key);
      return sign({ ...request, intro: request.intro ?? error.message }, call);
    }
  }, [sign]);

  const dialog = (
    <SignatureDialog request={pending?.request ?? null} onSign={(signature) => pending?.run(signature) ?? Promise.resolve()}
      onCancel={() => pending?.cancel()} />
  );
  return { sign, signIfNeeded, dialog };
}

