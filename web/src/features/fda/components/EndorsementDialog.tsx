import { Button, Callout, Checkbox, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, Switch } from '@blueprintjs/core';
import { EndorsedIcon, ErrorIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useRevalidateOnLanguageChange } from '@/hooks/useRevalidateOnLanguageChange';
import { lengthOf } from '@/lib/alarmValues';
import { clearingEmoji } from '@/lib/clearEmoji';
import {
  FDA_LIMITS, fdaKeys, insertEndorsement, isMeaning, MEANINGS, RECORD_TYPES, updateEndorsement,
  type Endorsement, type EndorsementFields, type Scope,
} from '@/lib/api/fda';
import type { Member, OrganizationRole } from '@/lib/api/organizationPeople';
import { LIVE_VALIDATION } from '@/lib/forms';
import { notify } from '@/lib/notify';
import { showError } from '@/lib/serverErrors';

/** The meaning select's entry for an endorsement's own words. */
export const OWN_MEANING = 'own';

const within = (limit: number) => (value: string) => lengthOf(value.trim()) <= limit;

/** The endorsement form's rules (the server's: name and description up to 50, spec 001 section 5). */
export function endorsementFormSchema(t: TFunction) {
  const tooLong = (max: number) => t('error.tooLong', { max });
  return z.object({
    name: z.string().refine((v) => v.trim() !== '', t('endorsements.error.name')).refine(within(FDA_LIMITS.endorsementName), tooLong(FDA_LIMITS.endorsementName)),
    description: z.string().refine(within(FDA_LIMITS.endorsementDescription), tooLong(FDA_LIMITS.endorsementDescription)),
    meaningChoice: z.string(),
    ownMeaning: z.string().refine(within(FDA_LIMITS.meaning), tooLong(FDA_LIMITS.meaning)),
    recordTypes: z.array(z.string()).min(1, t('endorsements.error.records')),
    roleIds: z.array(z.number()),
    accountIds: z.array(z.number()),
    distinctSigner: z.boolean(),
  }).refine((form) => form.meaningChoice !== OWN_MEANING || form.ownMeaning.trim() !== '', {
    path: ['ownMeaning'], message: t('endorsements.error.meaning'),
  });
}
export type EndorsementForm = z.infer<ReturnType<typeof endorsementFormSchema>>;
const FIELDS = ['name', 'description', 'ownMeaning', 'recordTypes', 'roleIds', 'accountIds', 'distinctSigner'] as const;

export function formOf(endorsement: Endorsement | null): EndorsementForm {
  if (!endorsement) {
    return { name: '', description: '', meaningChoice: 'approved', ownMeaning: '', recordTypes: [], roleIds: [], accountIds: [], distinctSigner: false };
  }
  const standard = isMeaning(endorsement.meaning);
  return {
    name: endorsement.name, description: endorsement.description ?? '',
    meaningChoice: standard ? endorsement.meaning : OWN_MEANING, ownMeaning: standard ? '' : endorsement.meaning,
    recordTypes: endorsement.recordTypes, roleIds: endorsement.roleIds, accountIds: endorsement.accountIds,
    distinctSigner: endorsement.distinctSigner,
  };
}

/** The body the server takes: texts trimmed, a standard meaning by its code, an own one as written. */
export function fieldsOf(form: EndorsementForm): EndorsementFields {
  return {
    name: form.name.trim(), description: form.description.trim() || null,
    meaning: form.meaningChoice === OWN_MEANING ? form.ownMeaning.trim() : form.meaningChoice,
    recordTypes: form.recordTypes, roleIds: form.roleIds, accountIds: form.accountIds, distinctSigner: form.distinctSigner,
  };
}

export interface EndorsementDialogProps {
  scope: Scope;
  /** The endorsement changed, 'new' for another; nothing shows with null. */
  endorsement: Endorsement | 'new' | null;
  /** The organization's roles and members to choose signers from (none for the caller's own records). */
  roles: readonly OrganizationRole[];
  members: readonly Member[];
  onClose: () => void;
}

export function EndorsementDialog({ scope, endorsement, roles, members, onClose }: EndorsementDialogProps) {
  const { t } = useTranslation('fda');
  const editing = endorsement !== null && endorsement !== 'new';
  return (
    <Dialog isOpen={endorsement !== null} onClose={onClose} title={t(editing ? 'endorsements.editTitle' : 'endorsements.addTitle')}
      icon={<EndorsedIcon />} className="jc-fda-dialog" canOutsideClickClose={false}>
      {endorsement !== null && (
        <EndorsementFormBody key={editing ? endorsement.id : 'new'} scope={scope} endorsement={editing ? endorsement : null}
          roles={roles} members={members} onClose={onClose} />
      )}
    </Dialog>
  );
}

function EndorsementFormBody({ scope, endorsement, roles, members, onClose }: Omit<EndorsementDialogProps, 'endorsement'> & {
  endorsement: Endorsement | null;
}) {
  const { t } = useTranslation('fda');
  const queryClient = useQueryClient();
  const resolver = useMemo(() => zodResolver(endorsementFormSchema(t)), [t]);
  const form = useForm<EndorsementForm>({ ...LIVE_VALIDATION, resolver, defaultValues: formOf(endorsement) });
  useRevalidateOnLanguageChange(form);
  const [failure, setFailure] = useState<string | null>(null);
  const organization = scope.organizationId !== undefined;
  // A role is named by its id: built-in roles carry theirs as custom ones do; one without (an older server's) cannot be named.
  const namedRoles = roles.filter((role): role is OrganizationRole & { roleId: number } => role.roleId !== null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      const saved = endorsement ? await updateEndorsement(endorsement.id, fieldsOf(values)) : await insertEndorsement(scope, fieldsOf(values));
      notify.success(t(endorsement ? 'endorsements.saved' : 'endorsements.added', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: fdaKeys.all });
      onClose();
    } catch (error) {
      setFailure(showError(error, form.setError, FIELDS, {}, t));
    }
  });

  const choice = form.watch('meaningChoice');
  const text = (name: 'name' | 'description' | 'ownMeaning', label: string, max: number, testId: string) => (
    <Controller name={name} control={form.control} render={({ field: { ref, ...field }, fieldState }) => (
      <FormGroup label={label} labelFor={`fda-e-${name}`} intent={fieldState.error ? 'danger' : 'none'}
        helperText={fieldState.error?.message ?? t('counter', { count: lengthOf(field.value.trim()), max })}>
        <InputGroup {...field} onChange={clearingEmoji(field.onChange)} inputRef={ref} id={`fda-e-${name}`}
          intent={fieldState.error ? 'danger' : 'none'} data-testid={testId} />
      </FormGroup>
    )} />
  );
  const ids = (name: 'roleIds' | 'accountIds', options: { id: number; label: string }[], label: string, testId: string) => (
    <Controller name={name} control={form.control} render={({ field }) => (
      <FormGroup label={label}>
        <div className="jc-fda-checks" data-testid={testId}>
          {options.map((option) => (
            <Checkbox key={option.id} label={option.label} checked={field.value.includes(option.id)}
              onChange={(event) => field.onChange(event.currentTarget.checked
                ? [...field.value, option.id] : field.value.filter((id) => id !== option.id))} />
          ))}
        </div>
      </FormGroup>
    )} />
  );

  return (
    <form onSubmit={submit} noValidate data-testid="endorsement-dialog">
      <DialogBody>
        <div className="jc-fda-row">
          {text('name', t('endorsements.field.name'), FDA_LIMITS.endorsementName, 'endorsement-name')}
          {text('description', t('endorsements.field.description'), FDA_LIMITS.endorsementDescription, 'endorsement-description')}
        </div>
        <Controller name="meaningChoice" control={form.control} render={({ field: { ref, ...field } }) => (
          <FormGroup label={t('endorsements.field.meaning')} labelFor="fda-e-meaning">
            <HTMLSelect {...field} ref={ref} id="fda-e-meaning" fill data-testid="endorsement-meaning">
              {MEANINGS.map((meaning) => <option key={meaning} value={meaning}>{t(`components:signature.meanings.${meaning}`)}</option>)}
              <option value={OWN_MEANING}>{t('endorsements.ownMeaning')}</option>
            </HTMLSelect>
          </FormGroup>
        )} />
        {choice === OWN_MEANING && text('ownMeaning', t('endorsements.field.ownMeaning'), FDA_LIMITS.meaning, 'endorsement-own-meaning')}
        <Controller name="recordTypes" control={form.control} render={({ field, fieldState }) => (
          <FormGroup label={t('endorsements.field.records')} intent={fieldState.error ? 'danger' : 'none'} helperText={fieldState.error?.message}>
            <div className="jc-fda-checks" data-testid="endorsement-records">
              {RECORD_TYPES.map((type) => (
                <Checkbox key={type} label={t(`record.${type}`)} checked={field.value.includes(type)}
                  onChange={(event) => field.onChange(event.currentTarget.checked ? [...field.value, type] : field.value.filter((v) => v !== type))} />
              ))}
            </div>
          </FormGroup>
        )} />
        {organization ? (
          <>
            {namedRoles.length > 0 && ids('roleIds', namedRoles.map((r) => ({ id: r.roleId, label: r.roleName })), t('endorsements.field.roles'), 'endorsement-roles')}
            {ids('accountIds', members.map((m) => ({ id: m.accountId, label: m.realName ? `${m.realName} (${m.userName})` : m.userName })),
              t('endorsements.field.people'), 'endorsement-people')}
            <p className="jc-fda-muted jc-fda-hint">{t('endorsements.signersHint')}</p>
          </>
        ) : (
          <p className="jc-fda-muted jc-fda-hint">{t('endorsements.ownHint')}</p>
        )}
        <Controller name="distinctSigner" control={form.control} render={({ field }) => (
          <Switch checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)}
            label={t('endorsements.field.distinct')} data-testid="endorsement-distinct" />
        )} />
        {failure && <Callout intent="danger" icon={<ErrorIcon />} compact role="alert" data-testid="endorsement-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={
        <>
          <Button text={t('cancel')} onClick={onClose} />
          <Button type="submit" intent="primary" text={t('save')} loading={form.formState.isSubmitting} data-testid="endorsement-save" />
        </>
      } />
    </form>
  );
}
