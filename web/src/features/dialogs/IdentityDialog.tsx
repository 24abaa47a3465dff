import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { ErrorIcon, IdNumberIcon, LogOutIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { loadSessionPermissions, logout } from '@/app/effects';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { notify } from '@/lib/notify';
import { session } from '@/lib/session';
import {
  IDENTITY_DICT,
  INDUSTRY_DICT,
  updateProfileIdentity,
  useDictionary,
  type ProfileDict,
} from '@/lib/api/profile';
import { IDENTITY_FIELDS, identitySchema, saveFailure, type IdentityForm } from './identitySchema';
import './dialogs.css';

/** True when the account still lacks its identity or industry. */
export function identityMissing(info: AccountInfo): boolean {
  return !info.userProfile.elitechIdentity?.trim() || !info.userProfile.elitechIndustry?.trim();
}

export interface IdentityDialogProps {
  /** The signed-in account whose profile is completed. */
  info: AccountInfo;
}

/**
 * "Supplement user information": identity and industry, both required. It cannot be dismissed
 * without saving; the only other way out is to log out.
 */
export function IdentityDialog({ info }: IdentityDialogProps) {
  const { t } = useTranslation('dialogs');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const resolver = useMemo(() => zodResolver(identitySchema(t)), [t]);
  const form = useForm<IdentityForm>({
    resolver,
    defaultValues: {
      elitechIdentity: info.userProfile.elitechIdentity ?? '',
      elitechIndustry: info.userProfile.elitechIndustry ?? '',
    },
  });
  const [failure, setFailure] = useState<string | null>(null);

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await updateProfileIdentity(values);
    } catch (error) {
      const sorted = saveFailure(error, t);
      IDENTITY_FIELDS.forEach((name) => {
        const message = sorted.fields[name];
        if (message) form.setError(name, { type: 'server', message });
      });
      setFailure(sorted.message);
      return;
    }
    notify.success(t('identity.saved'));
    try {
      await loadSessionPermissions();
    } catch {
      // Saved all the same: keep the session going with what was just stored.
      const { sceneId, scenePermissions } = session.get();
      session.loaded({ ...info, userProfile: { ...info.userProfile, ...values } }, sceneId, scenePermissions);
    }
  });

  const signOut = async () => {
    await logout(queryClient);
    navigate('/user/login', { replace: true });
  };

  return (
    <Dialog
      isOpen
      title={t('identity.title')}
      icon={<IdNumberIcon />}
      isCloseButtonShown={false}
      canEscapeKeyClose={false}
      canOutsideClickClose={false}
      className="jc-identity-dialog"
    >
      <form className="jc-dialog-content" data-testid="identity-dialog" onSubmit={submit} noValidate>
        <DialogBody>
          <p className="jc-identity-intro">{t('identity.intro')}</p>
          {failure && (
            <Callout intent="danger" icon={<ErrorIcon />} className="jc-identity-failure" role="alert">
              {failure}
            </Callout>
          )}
          <DictSelect control={form.control} name="elitechIdentity" dict={IDENTITY_DICT} label={t('identity.identity')} />
          <DictSelect control={form.control} name="elitechIndustry" dict={INDUSTRY_DICT} label={t('identity.industry')} />
        </DialogBody>
        <DialogFooter
          actions={
            <Button type="submit" intent="primary" text={t('identity.save')} loading={form.formState.isSubmitting} />
          }
        >
          <Button variant="minimal" icon={<LogOutIcon />} text={t('identity.logout')} onClick={signOut} />
        </DialogFooter>
      </form>
    </Dialog>
  );
}

interface DictSelectProps {
  control: Control<IdentityForm>;
  name: keyof IdentityForm;
  dict: ProfileDict;
  label: string;
}

function DictSelect({ control, name, dict, label }: DictSelectProps) {
  const { t } = useTranslation('dialogs');
  const items = useDictionary(dict);
  const id = `jc-${name}`;
  const placeholder = items.isPending ? t('identity.loading') : t('identity.choose');
  return (
    <Controller
      control={control}
      name={name}
      render={({ field, fieldState }) => (
        <FormGroup
          label={label}
          labelFor={id}
          labelInfo={<span aria-hidden="true">*</span>}
          intent={fieldState.error ? 'danger' : 'none'}
          helperText={fieldState.error?.message ?? (items.isError ? t('identity.dictFailed') : undefined)}
        >
          <HTMLSelect
            id={id}
            name={field.name}
            fill
            required
            aria-invalid={fieldState.error ? true : undefined}
            value={field.value}
            onChange={(event) => field.onChange(event.currentTarget.value)}
            onBlur={field.onBlur}
            disabled={items.isPending}
            options={[
              { value: '', label: placeholder, disabled: true },
              ...(items.data ?? []).map((item) => ({ value: item.dataCode, label: item.label })),
            ]}
          />
        </FormGroup>
      )}
    />
  );
}
