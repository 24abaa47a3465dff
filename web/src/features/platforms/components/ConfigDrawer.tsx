import { Alert, Button, Callout, Classes, Drawer, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { ErrorIcon, FloppyDiskIcon, ResetIcon, CreditCardIcon } from '@blueprintjs/icons';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import {
  useConfig, useDeleteConfig, useUpdateConfig, type CampOverview, type ConfigKey, type PayConfig,
} from '../api/payConfig';
import { configSchema, initialValues, sortRefusal, valuesToSend, type ConfigValues } from '../configForm';
import { campName, providerName } from '../labels';
import { ConfigFieldInput } from './ConfigField';
import { NotifyUrl } from './NotifyUrl';

interface ConfigDrawerProps {
  /** The camp and provider opened; null: closed. */
  target: ConfigKey | null;
  /** The camp's platforms, to say whose payments these are. */
  platforms: CampOverview['platforms'];
  onClose: () => void;
}

/** A camp's configuration of one provider: read, changed, or given up for the console's. */
export function ConfigDrawer({ target, platforms, onClose }: ConfigDrawerProps) {
  const { t } = useTranslation('platforms');
  const query = useConfig(target);
  const title = target ? t('drawer.title', { provider: providerName(t, target.provider), camp: campName(t, target.camp) }) : '';
  const config = query.data;
  return (
    <Drawer isOpen={target !== null} onClose={onClose} size={640} className="jc-pf-drawer" icon={<CreditCardIcon />}
      title={title} canOutsideClickClose={false}>
      <div className="jc-pf-drawer-body" data-testid="pc-drawer" data-camp={target?.camp} data-provider={target?.provider}>
        {config === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('drawer.loadFailed')} /> : <Spinner className="jc-pf-loading" />
        ) : (
          // A configuration read anew (saved, given up) starts the form again from what is stored.
          <ConfigForm key={`${config.own}-${config.updatedAt ?? ''}`} config={config} platforms={platforms} onClose={onClose} />
        )}
      </div>
    </Drawer>
  );
}

function ConfigForm({ config, platforms, onClose }: { config: PayConfig; platforms: ConfigDrawerProps['platforms']; onClose: () => void }) {
  const { t } = useTranslation('platforms');
  const schema = useMemo(() => configSchema(config.fields, t), [config.fields, t]);
  const { control, handleSubmit, reset, setError } = useForm<ConfigValues>({
    resolver: zodResolver(schema), mode: 'onTouched', defaultValues: initialValues(config.fields),
  });
  const update = useUpdateConfig();
  const remove = useDeleteConfig();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const busy = update.isPending || remove.isPending;
  const provider = providerName(t, config.provider);
  const camp = campName(t, config.camp);

  const save = handleSubmit((values) => {
    setProblem(null);
    update.mutate({ camp: config.camp, provider: config.provider, values: valuesToSend(config.fields, values) }, {
      onSuccess: (saved) => {
        reset(initialValues(saved.fields));
        notify.success(t('saved', { provider, camp }));
      },
      onError: (error) => {
        const sorted = sortRefusal(error, config.fields, t);
        for (const [name, message] of Object.entries(sorted.fields)) {
          if (message) setError(name, { type: 'server', message }, { shouldFocus: true });
        }
        setProblem(sorted.form);
      },
    });
  });

  const giveUp = () => remove.mutate({ camp: config.camp, provider: config.provider }, {
    onSuccess: () => notify.success(t('deleted', { provider, camp })),
    onSettled: () => setConfirming(false),
  });

  return (
    <>
      <div className={Classes.DRAWER_BODY}>
        <form className="jc-pf-form" onSubmit={(event) => void save(event)} noValidate data-testid="pc-form">
          <div className="jc-pf-state">
            <Tag minimal round intent={config.own ? 'success' : 'none'} data-testid="pc-own" data-own={config.own}>
              {config.own ? t('status.own') : t('status.console')}
            </Tag>
            {config.own && config.updatedAt && (
              <span className="jc-pf-muted" data-testid="pc-updated">
                {t('drawer.updated', { at: config.updatedAt, by: config.updatedBy ?? '—' })}
              </span>
            )}
          </div>
          {platforms.length > 0 && (
            <p className="jc-pf-muted jc-pf-whose">
              {t('drawer.platforms', { platforms: platforms.map((p) => `${p.title} (${p.topDomain})`).join(', ') })}
            </p>
          )}
          {!config.own && <Callout compact data-testid="pc-uses-console">{t('drawer.usesConsole')}</Callout>}
          <NotifyUrl url={config.notifyUrl} />
          {config.fields.map((field) => <ConfigFieldInput key={field.name} field={field} control={control} disabled={busy} />)}
          {problem && <Callout intent="danger" role="alert" data-testid="pc-form-error">{problem}</Callout>}
          {/* Enter in a line saves, as the Save button does. */}
          <button type="submit" hidden aria-hidden tabIndex={-1} />
        </form>
      </div>
      <div className={`${Classes.DRAWER_FOOTER} jc-pf-footer`}>
        {config.own && (
          <Button intent="danger" variant="outlined" icon={<ResetIcon />} text={t('useConsole.button')} disabled={busy}
            onClick={() => setConfirming(true)} data-testid="pc-use-console" />
        )}
        <span className="jc-pf-spacer" />
        <Button text={t('cancel')} onClick={onClose} disabled={busy} data-testid="pc-cancel" />
        <Button intent="primary" icon={<FloppyDiskIcon />} text={t('save')} loading={update.isPending} disabled={remove.isPending}
          onClick={() => void save()} data-testid="pc-save" />
      </div>
      <Alert isOpen={confirming} intent="danger" icon={<ResetIcon />} cancelButtonText={t('cancel')}
        confirmButtonText={t('useConsole.confirmButton')} loading={remove.isPending} onCancel={() => setConfirming(false)}
        onConfirm={giveUp} canEscapeKeyCancel className="jc-pf-alert">
        <p data-testid="pc-use-console-confirm">{t('useConsole.confirm', { provider, camp })}</p>
      </Alert>
    </>
  );
}
