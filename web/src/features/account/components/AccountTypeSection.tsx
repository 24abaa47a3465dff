import { Alert, Button, Callout, Checkbox, Classes, Dialog, DialogBody, DialogFooter, H5, Spinner, Tag } from '@blueprintjs/core';
import { BriefcaseIcon, EndorsedIcon, ManualIcon, TimeIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { loadSessionPermissions } from '@/app/effects';
import type { AccountInfo } from '@/lib/api/accountInfo';
import { notify } from '@/lib/notify';
import { sortError } from '@/lib/serverErrors';
import { formatInstant } from '@/lib/units';
import {
  ACCOUNT_TYPE,
  applyAsContractor,
  CONTRACTOR_AGREEMENT_KEY,
  CONTRACTOR_STATE,
  fetchContractorAgreement,
  upgradeToEnterprise,
  type ContractorAgreement,
} from '../api/accountType';

const TYPE_KEYS: Record<number, string> = {
  [ACCOUNT_TYPE.personal]: 'personal',
  [ACCOUNT_TYPE.enterprise]: 'enterprise',
  [ACCOUNT_TYPE.engineer]: 'engineer',
  [ACCOUNT_TYPE.dealer]: 'dealer',
  [ACCOUNT_TYPE.backOffice]: 'backOffice',
};

/** The account's permissions, menu and information follow a change of its type at once. */
async function reloadAccount(queryClient: ReturnType<typeof useQueryClient>) {
  await Promise.allSettled([loadSessionPermissions(), queryClient.invalidateQueries()]);
}

/**
 * "Account type" (spec seed 001 section 6): the account's type; a personal customer upgrades to
 * enterprise after a confirmation saying what changes, and applies as an engineer (contractor) by
 * accepting the agreement, then is shown as applied or certified.
 */
export function AccountTypeSection({ info }: { info: AccountInfo }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const type = info.baseAccount.accountType;
  const typeKey = TYPE_KEYS[type] ?? 'personal';
  const [confirming, setConfirming] = useState(false);
  const [reading, setReading] = useState(false);
  const upgrade = useMutation({
    mutationFn: upgradeToEnterprise,
    onSuccess: async () => {
      setConfirming(false);
      await reloadAccount(queryClient);
      notify.success(t('type.upgraded'));
    },
  });
  const upgradeFailure = upgrade.isError ? sortError(upgrade.error, [], {}, t).form : null;
  const mayApply = type === ACCOUNT_TYPE.personal || type === ACCOUNT_TYPE.engineer;

  return (
    <div className="jc-account-form jc-account-type" data-testid="account-type">
      <dl className="jc-account-facts">
        <dt>{t('type.current')}</dt>
        <dd>
          <Tag large minimal intent={type === ACCOUNT_TYPE.enterprise ? 'primary' : 'none'} icon={<BriefcaseIcon />}
            data-testid="account-type-name">
            {t(`type.names.${typeKey}`)}
          </Tag>
        </dd>
      </dl>
      <p className={Classes.TEXT_MUTED} data-testid="account-type-about">{t(`type.about.${typeKey}`)}</p>
      {type === ACCOUNT_TYPE.personal && (
        <Button intent="primary" icon={<BriefcaseIcon />} text={t('type.upgrade')} onClick={() => { upgrade.reset(); setConfirming(true); }}
          data-testid="account-upgrade" />
      )}
      {mayApply && <ContractorPart onRead={() => setReading(true)} />}

      <Alert isOpen={confirming} intent="primary" icon={<BriefcaseIcon />} cancelButtonText={t('type.cancel')}
        confirmButtonText={t('type.upgradeConfirm')} loading={upgrade.isPending} canEscapeKeyCancel
        onCancel={() => setConfirming(false)} onConfirm={() => upgrade.mutate()}>
        <div data-testid="account-upgrade-confirm">
          <H5>{t('type.upgradeTitle')}</H5>
          <p>{t('type.upgradeText')}</p>
          <ul className="jc-account-type-gains">
            <li>{t('type.gains.organizations')}</li>
            <li>{t('type.gains.projects')}</li>
            <li>{t('type.gains.members')}</li>
          </ul>
          <p className={Classes.TEXT_MUTED}>{t('type.upgradeKeeps')}</p>
          {upgradeFailure && <Callout intent="danger" compact data-testid="account-upgrade-error">{upgradeFailure}</Callout>}
        </div>
      </Alert>
      {reading && <AgreementDialog onClose={() => setReading(false)} />}
    </div>
  );
}

/** Where the account stands as a contractor, and the way to apply (or to accept a new agreement). */
function ContractorPart({ onRead }: { onRead: () => void }) {
  const { t, i18n } = useTranslation('account');
  const query = useQuery({ queryKey: CONTRACTOR_AGREEMENT_KEY, queryFn: fetchContractorAgreement });
  const agreement = query.data;
  return (
    <section className="jc-account-contractor" data-testid="account-contractor">
      <H5>{t('type.contractor')}</H5>
      {query.isPending && <Spinner size={20} />}
      {query.isError && <Callout intent="danger" compact>{t('type.agreementFailed')}</Callout>}
      {agreement && agreement.contractorState === CONTRACTOR_STATE.none && (
        <>
          <p className={Classes.TEXT_MUTED}>{t('type.contractorText')}</p>
          <Button icon={<ManualIcon />} text={t('type.apply')} onClick={onRead} data-testid="account-apply" />
        </>
      )}
      {agreement && agreement.contractorState !== CONTRACTOR_STATE.none && (
        <>
          <p>
            {agreement.contractorState === CONTRACTOR_STATE.certified ? (
              <Tag large intent="success" icon={<EndorsedIcon />} data-testid="account-contractor-state">{t('type.state.certified')}</Tag>
            ) : (
              <Tag large intent="warning" icon={<TimeIcon />} data-testid="account-contractor-state">{t('type.state.applied')}</Tag>
            )}
          </p>
          <p className={Classes.TEXT_MUTED}>
            {t('type.acceptedOn', { version: agreement.acceptedVersion ?? '', at: formatInstant(agreement.appliedAt, i18n.language, false) })}
          </p>
          {agreement.acceptedVersion !== agreement.version && (
            <Callout intent="warning" compact data-testid="account-new-agreement">
              <p>{t('type.newAgreement')}</p>
              <Button icon={<ManualIcon />} text={t('type.readNew')} onClick={onRead} data-testid="account-apply" />
            </Callout>
          )}
        </>
      )}
    </section>
  );
}

/** The agreement's text (the server's, in the user's language) and a box to tick before applying. */
function AgreementDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('account');
  const query = useQuery({ queryKey: CONTRACTOR_AGREEMENT_KEY, queryFn: fetchContractorAgreement });
  return (
    <Dialog isOpen onClose={onClose} icon={<ManualIcon />} title={query.data?.title ?? t('type.contractor')}
      className="jc-account-agreement" canOutsideClickClose={false}>
      {query.data ? <AgreementForm agreement={query.data} onDone={onClose} /> : (
        <DialogBody>{query.isError ? <Callout intent="danger" compact>{t('type.agreementFailed')}</Callout> : <Spinner />}</DialogBody>
      )}
    </Dialog>
  );
}

function AgreementForm({ agreement, onDone }: { agreement: ContractorAgreement; onDone: () => void }) {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const schema = useMemo(() => z.object({
    accepted: z.boolean().refine((accepted) => accepted, { message: t('type.acceptRequired') }),
  }), [t]);
  const { control, handleSubmit } = useForm<{ accepted: boolean }>({
    resolver: zodResolver(schema), defaultValues: { accepted: false },
  });
  const [failure, setFailure] = useState<string | null>(null);
  const apply = useMutation({ mutationFn: () => applyAsContractor(agreement.version) });
  const submit = handleSubmit(() => {
    setFailure(null);
    apply.mutate(undefined, {
      onSuccess: async () => {
        await reloadAccount(queryClient);
        notify.success(t('type.appliedNotice'));
        onDone();
      },
      onError: (error) => setFailure(sortError(error, [], {}, t).form),
    });
  });
  return (
    <form onSubmit={(event) => void submit(event)} noValidate data-testid="agreement-form">
      <DialogBody>
        <p className={Classes.TEXT_MUTED}>{t('type.version', { version: agreement.version })}</p>
        <ol className="jc-account-agreement-text" data-testid="agreement-text">
          {agreement.clauses.map((clause) => <li key={clause}>{clause}</li>)}
        </ol>
        <Controller name="accepted" control={control} render={({ field, fieldState }) => (
          <>
            <Checkbox checked={field.value} onChange={(event) => field.onChange(event.currentTarget.checked)}
              inputRef={field.ref} label={t('type.accept', { version: agreement.version })} data-testid="agreement-accept" />
            {fieldState.error && <Callout intent="danger" compact data-testid="agreement-required">{fieldState.error.message}</Callout>}
          </>
        )} />
        {failure && <Callout intent="danger" compact data-testid="agreement-error">{failure}</Callout>}
      </DialogBody>
      <DialogFooter actions={<>
        <Button text={t('type.cancel')} onClick={onDone} />
        <Button type="submit" intent="primary" text={t('type.submitApply')} loading={apply.isPending} data-testid="agreement-submit" />
      </>} />
    </form>
  );
}
