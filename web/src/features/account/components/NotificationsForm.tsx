import { Button, Callout, HTMLTable, Spinner, Switch } from '@blueprintjs/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { sortError } from '@/lib/serverErrors';
import { fetchChannels, saveChannels, type ChannelChoice } from '../api/account';

const CHANNELS_KEY = ['messageChannels'];

/** For each kind of system message: also by e-mail, also by SMS (the inbox always has it). */
export function NotificationsForm() {
  const { t } = useTranslation('account');
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: CHANNELS_KEY, queryFn: fetchChannels });
  const [choices, setChoices] = useState<ChannelChoice[]>([]);
  useEffect(() => {
    if (query.data) setChoices(query.data);
  }, [query.data]);
  const save = useMutation({
    mutationFn: saveChannels,
    onSuccess: (saved) => {
      queryClient.setQueryData(CHANNELS_KEY, saved);
      notify.success(t('saved'));
    },
  });

  if (query.isPending) return <Spinner size={24} />;
  if (query.isError) return <Callout intent="danger" compact>{t('notifications.failed')}</Callout>;
  const toggle = (kind: ChannelChoice['kind'], channel: 'email' | 'phone') =>
    setChoices((all) => all.map((c) => (c.kind === kind ? { ...c, [channel]: !c[channel] } : c)));
  const failure = save.isError ? sortError(save.error, [], {}, t).form : null;

  return (
    <div className="jc-account-form" data-testid="notifications-form">
      <HTMLTable compact className="jc-account-channels">
        <thead>
          <tr>
            <th>{t('notifications.kind')}</th>
            <th>{t('notifications.email')}</th>
            <th>{t('notifications.sms')}</th>
          </tr>
        </thead>
        <tbody>
          {choices.map((c) => (
            <tr key={c.kind}>
              <td>{t(`kinds.${c.kind}`)}</td>
              <td>
                <Switch checked={c.email} onChange={() => toggle(c.kind, 'email')} aria-label={`${t(`kinds.${c.kind}`)}: ${t('notifications.email')}`} />
              </td>
              <td>
                <Switch checked={c.phone} onChange={() => toggle(c.kind, 'phone')} aria-label={`${t(`kinds.${c.kind}`)}: ${t('notifications.sms')}`} />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {failure && <Callout intent="danger" compact>{failure}</Callout>}
      <Button intent="primary" text={t('save')} loading={save.isPending} onClick={() => save.mutate(choices)} data-testid="notifications-save" />
    </div>
  );
}
