import { Alert, Button, Dialog, DialogBody, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import {
  AddIcon, DocumentIcon, DownloadIcon, DuplicateIcon, EditIcon, ErrorIcon, PauseIcon, PlayIcon, SearchIcon, TagIcon, TrashIcon,
} from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { formatCents } from '@/lib/money';
import { notify } from '@/lib/notify';
import { usePermissions } from '@/lib/permissions';
import { formatInstant } from '@/lib/units';
import {
  PROMOTION_LIMITS, copyActivity, deleteActivity, enableActivity, exportActivityOrders, stopActivity, useActivities,
  useActivityOrders, usePromotionChange, type Activity,
} from './api/promotions';
import { ActivityDialog } from './components/ActivityDialog';
import './promotions.css';

const PERMISSION = 'order.servicePackage';
type Confirm = { kind: 'delete' | 'stop' | 'enable' | 'copy'; activity: Activity };

/** What an activity offers, as a short text: "80 % · +2 months", or the range its options span ("60–80 %"). */
function offerText(activity: Activity, t: (key: string, options?: Record<string, unknown>) => string) {
  const discounts = activity.options.map((o) => o.activityDiscount).filter((d) => d < 100);
  const bonus = Math.max(0, ...activity.options.map((o) => o.presentationMonth));
  const parts = [];
  if (discounts.length > 0) {
    const low = Math.min(...discounts);
    const high = Math.max(...discounts);
    parts.push(t('offer.discount', { percent: low === high ? low : `${low}–${high}` }));
  }
  if (bonus > 0) parts.push(t('offer.bonus', { count: bonus }));
  return parts.join(' · ');
}

/** The promotions tab of /service/package: activities, run, stopped, copied and deleted, and the orders at their price. */
export default function ActivitiesPanel() {
  const { t, i18n } = useTranslation('promotions');
  const held = usePermissions();
  const can = (action: string) => held.has(`${PERMISSION}:${action}`);
  const [draft, setDraft] = useState('');
  const [name, setName] = useState('');
  const paging = usePaging();
  const query = useActivities(name, paging.start, paging.pageSize);
  const [editing, setEditing] = useState<Activity | 'new' | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [orders, setOrders] = useState<Activity | null>(null);
  const remove = usePromotionChange(deleteActivity);
  const enable = usePromotionChange(enableActivity);
  const stop = usePromotionChange(stopActivity);
  const copy = usePromotionChange(copyActivity);
  const page = query.data;
  const now = Date.now();

  const search = (event: FormEvent) => {
    event.preventDefault();
    setName(draft.trim());
    paging.restart();
  };
  const confirmed = () => {
    if (!confirm) return;
    const { kind, activity } = confirm;
    const done = { onSettled: () => setConfirm(null) };
    const said = (key: string) => () => notify.success(t(key, { name: activity.name }));
    if (kind === 'delete') remove.mutate(activity.id, { ...done, onSuccess: said('activity.deleted') });
    if (kind === 'stop') stop.mutate(activity.id, { ...done, onSuccess: said('activity.stopped') });
    if (kind === 'enable') enable.mutate(activity.id, { ...done, onSuccess: said('activity.enabled') });
    if (kind === 'copy') copy.mutate(activity.id, { ...done, onSuccess: said('activity.copied') });
  };
  const state = (a: Activity) => {
    if (a.status === 0) return { intent: 'none' as const, text: t('status.stopped') };
    if (new Date(a.endTime).getTime() <= now) return { intent: 'none' as const, text: t('status.ended') };
    if (new Date(a.startTime).getTime() > now) return { intent: 'warning' as const, text: t('status.scheduled') };
    return { intent: 'success' as const, text: t('status.running') };
  };

  return (
    <div className="jc-pr" data-testid="pr-activities">
      <div className="jc-pr-toolbar">
        <form className="jc-pr-search" onSubmit={search}>
          <InputGroup value={draft} maxLength={PROMOTION_LIMITS.search} placeholder={t('activity.searchName')}
            leftIcon={<SearchIcon />} onChange={(e) => setDraft(e.currentTarget.value)} data-testid="pr-search" />
          <Button type="submit" text={t('search')} />
        </form>
        <span className="jc-pr-spacer" />
        {can('add') && (
          <Button intent="primary" icon={<AddIcon />} text={t('activity.add')} onClick={() => setEditing('new')} data-testid="pr-add" />
        )}
      </div>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('error.load')} /> : <Spinner />
      ) : page.data.length === 0 ? (
        <NonIdealState icon={<TagIcon />} title={t('activity.none')} />
      ) : (
        <div className="jc-pr-table-wrap">
          <HTMLTable className="jc-pr-table jc-pr-cards" striped data-testid="pr-table">
            <thead>
              <tr>
                <th>{t('field.name')}</th>
                <th>{t('column.offer')}</th>
                <th className="jc-pr-wide">{t('column.validity')}</th>
                <th>{t('column.status')}</th>
                <th aria-label={t('column.actions')} />
              </tr>
            </thead>
            <tbody>
              {page.data.map((a) => {
                const shown = state(a);
                return (
                  <tr key={a.id} data-testid="pr-row" data-name={a.defaultName}>
                    <td>
                      <strong className="jc-pr-name-cell">{a.name}</strong>
                      <div>
                        <Tag minimal round intent={a.nature === 2 ? 'primary' : 'none'}>{t(`nature.${a.nature}`)}</Tag>
                        {a.nature === 2 && (
                          <span className="jc-pr-muted" data-testid="pr-row-targets"> {a.accounts.map((x) => x.userName).join(', ')}</span>
                        )}
                      </div>
                    </td>
                    <td>
                      <div data-testid="pr-row-offer">{offerText(a, t)}</div>
                      <div className="jc-pr-muted">{t('column.optionCount', { count: a.options.length })}</div>
                    </td>
                    <td className="jc-pr-wide">
                      {formatInstant(a.startTime, i18n.language, false)}
                      <div className="jc-pr-muted">→ {formatInstant(a.endTime, i18n.language, false)}</div>
                    </td>
                    <td><Tag round intent={shown.intent} data-testid="pr-row-status">{shown.text}</Tag></td>
                    <td className="jc-pr-actions">
                      {can('edit') && (
                        <Button variant="minimal" icon={<EditIcon />} title={t('edit')} aria-label={t('edit')}
                          onClick={() => setEditing(a)} data-testid="pr-edit" />
                      )}
                      {a.status === 1 && can('disable') && (
                        <Button variant="minimal" icon={<PauseIcon />} title={t('activity.stop')} aria-label={t('activity.stop')}
                          onClick={() => setConfirm({ kind: 'stop', activity: a })} data-testid="pr-stop" />
                      )}
                      {a.status === 0 && can('enable') && (
                        <Button variant="minimal" intent="success" icon={<PlayIcon />} title={t('activity.enable')}
                          aria-label={t('activity.enable')} onClick={() => setConfirm({ kind: 'enable', activity: a })}
                          data-testid="pr-enable" />
                      )}
                      {can('add') && (
                        <Button variant="minimal" icon={<DuplicateIcon />} title={t('activity.copy')} aria-label={t('activity.copy')}
                          onClick={() => setConfirm({ kind: 'copy', activity: a })} data-testid="pr-copy" />
                      )}
                      <Button variant="minimal" icon={<DocumentIcon />} title={t('activity.orders')} aria-label={t('activity.orders')}
                        onClick={() => setOrders(a)} data-testid="pr-orders" />
                      {can('delete') && (
                        <Button variant="minimal" intent="danger" icon={<TrashIcon />} title={t('delete')} aria-label={t('delete')}
                          onClick={() => setConfirm({ kind: 'delete', activity: a })} data-testid="pr-delete" />
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      )}
      {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      <ActivityDialog activity={editing} onClose={() => setEditing(null)}
        onSaved={(saved) => notify.success(t('activity.saved', { name: saved.name }))} />
      <OrdersDialog activity={orders} onClose={() => setOrders(null)} />
      <Alert isOpen={confirm !== null} intent={confirm?.kind === 'delete' || confirm?.kind === 'stop' ? 'danger' : 'primary'}
        icon={confirm?.kind === 'delete' ? <TrashIcon /> : confirm?.kind === 'stop' ? <PauseIcon />
          : confirm?.kind === 'copy' ? <DuplicateIcon /> : <PlayIcon />}
        cancelButtonText={t('cancel')} confirmButtonText={t(`confirm.${confirm?.kind ?? 'delete'}Button`)}
        loading={remove.isPending || stop.isPending || enable.isPending || copy.isPending}
        onCancel={() => setConfirm(null)} onConfirm={confirmed} canEscapeKeyCancel>
        <p data-testid="pr-confirm">{confirm ? t(`confirm.${confirm.kind}`, { name: confirm.activity.name }) : ''}</p>
      </Alert>
    </div>
  );
}

function OrdersDialog({ activity, onClose }: { activity: Activity | null; onClose: () => void }) {
  const { t, i18n } = useTranslation('promotions');
  const held = usePermissions();
  const paging = usePaging();
  const query = useActivityOrders(activity?.id ?? null, paging.start, paging.pageSize);
  const [exporting, setExporting] = useState(false);
  const page = query.data;
  const runExport = async () => {
    if (!activity) return;
    setExporting(true);
    try {
      await exportActivityOrders(activity.id);
    } finally {
      setExporting(false);
    }
  };
  return (
    <Dialog isOpen={activity !== null} onClose={onClose} className="jc-pr-dialog jc-pr-orders"
      title={t('orders.title', { name: activity?.name ?? '' })}>
      <DialogBody>
        <div className="jc-pr-toolbar">
          <span className="jc-pr-muted">{page ? t('orders.total', { count: page.totalCount }) : ''}</span>
          <span className="jc-pr-spacer" />
          {held.has(`${PERMISSION}:export`) && (
            <Button icon={<DownloadIcon />} text={t('orders.export')} loading={exporting} onClick={() => void runExport()}
              data-testid="pr-orders-export" />
          )}
        </div>
        {page === undefined ? <Spinner /> : page.data.length === 0 ? (
          <NonIdealState icon={<DocumentIcon />} title={t('orders.none')} />
        ) : (
          <div className="jc-pr-table-wrap">
            <HTMLTable className="jc-pr-table" striped compact data-testid="pr-orders-table">
              <thead>
                <tr>
                  <th>{t('orders.code')}</th>
                  <th>{t('orders.account')}</th>
                  <th>{t('orders.fee')}</th>
                  <th>{t('orders.status')}</th>
                  <th className="jc-pr-wide">{t('orders.created')}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((o) => (
                  <tr key={o.orderId} data-testid="pr-order-row">
                    <td>{o.orderCode}<div className="jc-pr-muted">{o.orderDescription}</div></td>
                    <td>{o.userName}</td>
                    <td>{formatCents(o.payFee ?? o.orderFee, o.currency, i18n.language)}</td>
                    <td><Tag minimal round intent={o.payStatus === 2 ? 'success' : 'none'}>{t(`payStatus.${o.payStatus}`)}</Tag></td>
                    <td className="jc-pr-wide">{formatInstant(o.gmtCreate, i18n.language, false)}</td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
        )}
        {page !== undefined && page.totalCount > 0 && <PagerFooter {...paging.footer(page.totalCount)} />}
      </DialogBody>
    </Dialog>
  );
}
