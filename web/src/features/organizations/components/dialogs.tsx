import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup } from '@blueprintjs/core';
import { zodResolver } from '@hookform/resolvers/zod';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiError } from '@/lib/http/index';
import { hasRefusedCharacters } from '@/lib/refusedCharacters';
import {
  ASSIGNABLE, ORGANIZATION_LIMITS as L, useCreateOrganization, useInvite, useRenameOrganization, type MyOrganization,
} from '../api/organizations';

const length = (v: string) => [...v.trim()].length;

/** The server's rules (src/core/organizations/model.py), checked as the user types, in their language. */
export function nameSchema(t: TFunction) {
  return z.object({
    organizationName: z.string().refine((v) => length(v) >= L.nameMin && length(v) <= L.nameMax,
      t('error.name', { min: L.nameMin, max: L.nameMax }))
      .refine((v) => !hasRefusedCharacters(v), t('error.nameCharacters')),
  });
}

/** `codes`: the roles the invitee may be given (the built-in assignable ones and the organization's own). */
export function inviteSchema(t: TFunction, codes: readonly string[] = ASSIGNABLE) {
  return z.object({
    uep: z.string().refine((v) => length(v) >= L.inviteeMin && length(v) <= L.inviteeMax,
      t('error.invitee', { min: L.inviteeMin, max: L.inviteeMax })),
    roleCode: z.string().refine((v) => codes.includes(v), t('roles.error.role')),
  });
}

/** A role offered in a select: its code and its name in the reader's language. */
export interface RoleOption {
  value: string;
  label: string;
}

const failureOf = (error: unknown, fallback: string) => (error instanceof Error && error.message ? error.message : fallback);

/** Create an organization (no `organization`) or rename one. */
export function NameDialog({ organization, onClose }: { organization: MyOrganization | null | undefined; onClose: () => void }) {
  const { t } = useTranslation('organizations');
  return (
    <Dialog isOpen={organization !== undefined} onClose={onClose} className="jc-org-dialog"
      title={t(organization ? 'renameTitle' : 'createTitle')}>
      {organization !== undefined && <NameForm organization={organization} onClose={onClose} />}
    </Dialog>
  );
}

function NameForm({ organization, onClose }: { organization: MyOrganization | null; onClose: () => void }) {
  const { t } = useTranslation('organizations');
  const schema = useMemo(() => nameSchema(t), [t]);
  const create = useCreateOrganization();
  const rename = useRenameOrganization();
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit } = useForm({ resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { organizationName: organization?.organizationName ?? '' } });
  const submit = handleSubmit(({ organizationName }) => {
    const options = { onSuccess: onClose, onError: (e: unknown) => setFailure(failureOf(e, t('error.save'))) };
    const name = organizationName.trim();
    if (organization) rename.mutate({ organizationId: organization.organizationId, organizationName: name }, options);
    else create.mutate(name, options);
  });
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="org-name-form">
      <DialogBody>
        <Controller name="organizationName" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.name')} labelFor="org-name" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message ?? t('nameHint', { min: L.nameMin, max: L.nameMax })}>
            <InputGroup {...field} id="org-name" inputRef={ref} maxLength={L.nameMax + 10} autoFocus data-testid="org-name" />
          </FormGroup>
        )} />
        {failure && <Callout intent="danger" data-testid="org-form-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onClose} />
        <Button type="submit" intent="primary" text={t('save')} loading={create.isPending || rename.isPending}
          data-testid="org-save" />
      </>} />
    </form>
  );
}

interface InviteDialogProps {
  /** The organization inviting; null: closed. */
  organizationId: number | null;
  /** The roles the invitee may be given. */
  roles: readonly RoleOption[];
  onClose: () => void;
}

/** Invite by user name, phone or e-mail with a role; the invitee answers in the message centre. */
export function InviteDialog({ organizationId, roles, onClose }: InviteDialogProps) {
  const { t } = useTranslation('organizations');
  return (
    <Dialog isOpen={organizationId !== null} onClose={onClose} className="jc-org-dialog" title={t('inviteTitle')}>
      {organizationId !== null && <InviteForm organizationId={organizationId} roles={roles} onClose={onClose} />}
    </Dialog>
  );
}

function InviteForm({ organizationId, roles, onClose }: { organizationId: number; roles: readonly RoleOption[];
  onClose: () => void }) {
  const { t } = useTranslation('organizations');
  const codes = roles.map((r) => r.value).join('\n');
  const schema = useMemo(() => inviteSchema(t, codes.split('\n')), [t, codes]);
  const invite = useInvite();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { control, handleSubmit } = useForm({ resolver: zodResolver(schema), mode: 'onChange',
    defaultValues: { uep: '', roleCode: 'org_member' } });
  const submit = handleSubmit((values) => {
    setFailure(null);
    invite.mutate({ organizationId, uep: values.uep.trim(), roleCode: values.roleCode }, {
      onSuccess: (invitation) => setSent(invitation.displayName),
      onError: (e) => setFailure(e instanceof ApiError ? e.message : t('error.save')),
    });
  });
  if (sent !== null) {
    return (
      <>
        <DialogBody>
          <Callout intent="success" data-testid="invite-sent">{t('inviteSent', { name: sent })}</Callout>
        </DialogBody>
        <DialogFooter actions={<Button intent="primary" text={t('close')} onClick={onClose} data-testid="invite-close" />} />
      </>
    );
  }
  return (
    <form onSubmit={(e) => void submit(e)} data-testid="invite-form">
      <DialogBody>
        <p className="jc-org-muted">{t('inviteHint')}</p>
        <Controller name="uep" control={control} render={({ field: { ref, ...field }, fieldState }) => (
          <FormGroup label={t('field.invitee')} labelFor="invite-uep" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <InputGroup {...field} id="invite-uep" inputRef={ref} maxLength={L.inviteeMax + 10} autoFocus
              data-testid="invite-uep" />
          </FormGroup>
        )} />
        <Controller name="roleCode" control={control} render={({ field, fieldState }) => (
          <FormGroup label={t('field.role')} labelFor="invite-role" intent={fieldState.error ? 'danger' : 'none'}
            helperText={fieldState.error?.message}>
            <HTMLSelect {...field} id="invite-role" fill data-testid="invite-role" options={[...roles]} />
          </FormGroup>
        )} />
        {failure && <Callout intent="danger" data-testid="invite-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('cancel')} onClick={onClose} />
        <Button type="submit" intent="primary" text={t('invite')} loading={invite.isPending} data-testid="invite-send" />
      </>} />
    </form>
  );
}
