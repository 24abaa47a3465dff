import { Button, Card, FormGroup, H2, HTMLSelect, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { DownloadIcon, ErrorIcon, HistoryIcon, RefreshIcon, SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { OperationTable } from '@/components/OperationTable';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import {
  exportOperations,
  OUTCOMES,
  useOperationLabels,
  useOperations,
  type OperationFilter,
  type Outcome,
} from '@/lib/api/operationLog';
import { usePermissions } from '@/lib/permissions';
import { saveFile } from '@/lib/saveFile';
import './operationLog.css';

/** The object types a filter offers (src/adapters/persistence/audit.py KINDS); entries of others show under their code. */
const OBJECT_TYPES = [
  'device', 'alarmRule', 'alarmPushSetting', 'alarm', 'deviceParameters', 'maintenance', 'deviceCredentials', 'project',
  'organization', 'organizationMember', 'invitation', 'role', 'asset', 'scheduledReport', 'export', 'order', 'account',
  'profile',
] as const;

interface Fields {
  from: string;
  to: string;
  userName: string;
  objectType: string;
  action: string;
  outcome: '' | Outcome;
}

const EMPTY: Fields = { from: '', to: '', userName: '', objectType: '', action: '', outcome: '' };

/** A day of the user's calendar (yyyy-mm-dd) as the instant it starts, `days` later. */
function dayStart(day: string, days = 0): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const at = new Date(`${day}T00:00:00`);
  if (Number.isNaN(at.getTime())) return undefined;
  at.setDate(at.getDate() + days);
  return at.toISOString();
}

function filterOf(fields: Fields): OperationFilter {
  return {
    since: dayStart(fields.from),
    until: dayStart(fields.to, 1),
    userName: fields.userName.trim() || undefined,
    objectType: fields.objectType || undefined,
    action: fields.action.trim() || undefined,
    outcome: fields.outcome || undefined,
  };
}

/** The operation log: who changed what, when and from where, with each field's old and new value; filtered, paged, exported. */
export default function OperationLogPage() {
  const { t } = useTranslation(['operationLog', 'app']);
  const held = usePermissions();
  const label = useOperationLabels();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [filter, setFilter] = useState<OperationFilter>({});
  const [exporting, setExporting] = useState(false);
  const paging = usePaging();
  const query = useOperations(filter, paging.start, paging.pageSize);
  const page = query.data;
  const set = (name: keyof Fields) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setFields((current) => ({ ...current, [name]: value }));
  };
  const search = (event?: FormEvent) => {
    event?.preventDefault();
    setFilter(filterOf(fields));
    paging.restart();
  };
  const reset = () => {
    setFields(EMPTY);
    setFilter({});
    paging.restart();
  };
  const download = async () => {
    setExporting(true);
    try {
      const file = await exportOperations(filter);
      saveFile(file.blob, file.fileName ?? 'operation-log.xlsx');
    } catch {
      // the client has said why
    } finally {
      setExporting(false);
    }
  };
  const badRange = Boolean(fields.from && fields.to && fields.from > fields.to);

  return (
    <div className="jc-oplog" data-testid="operation-log-page">
      <header className="jc-oplog-head">
        <H2>{t('app:route.operationLog')}</H2>
        <p>{t('subtitle')}</p>
      </header>
      <Card className="jc-oplog-card" elevation={0}>
        <form className="jc-oplog-filters" onSubmit={search} data-testid="oplog-filters">
          <FormGroup label={t('filter.from')} labelFor="oplog-from">
            <InputGroup id="oplog-from" type="date" value={fields.from} onChange={set('from')} data-testid="oplog-from" />
          </FormGroup>
          <FormGroup label={t('filter.to')} labelFor="oplog-to" intent={badRange ? 'danger' : 'none'}
            helperText={badRange ? t('filter.badRange') : undefined}>
            <InputGroup id="oplog-to" type="date" value={fields.to} onChange={set('to')} intent={badRange ? 'danger' : 'none'}
              data-testid="oplog-to" />
          </FormGroup>
          <FormGroup label={t('filter.user')} labelFor="oplog-user">
            <InputGroup id="oplog-user" value={fields.userName} maxLength={50} onChange={set('userName')}
              data-testid="oplog-user" />
          </FormGroup>
          <FormGroup label={t('filter.object')} labelFor="oplog-object">
            <HTMLSelect id="oplog-object" value={fields.objectType} onChange={set('objectType')} data-testid="oplog-object">
              <option value="">{t('filter.any')}</option>
              {OBJECT_TYPES.map((type) => <option key={type} value={type}>{label('object', type)}</option>)}
            </HTMLSelect>
          </FormGroup>
          <FormGroup label={t('filter.action')} labelFor="oplog-action" helperText={t('filter.actionHint')}>
            <InputGroup id="oplog-action" value={fields.action} maxLength={100} onChange={set('action')}
              placeholder="Device.update" data-testid="oplog-action" />
          </FormGroup>
          <FormGroup label={t('filter.outcome')} labelFor="oplog-outcome">
            <HTMLSelect id="oplog-outcome" value={fields.outcome} onChange={set('outcome')} data-testid="oplog-outcome">
              <option value="">{t('filter.any')}</option>
              {OUTCOMES.map((o) => <option key={o} value={o}>{t(`outcome.${o}`)}</option>)}
            </HTMLSelect>
          </FormGroup>
          <div className="jc-oplog-buttons">
            <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('search')} disabled={badRange}
              data-testid="oplog-search" />
            <Button text={t('reset')} onClick={reset} />
            <Button variant="minimal" icon={<RefreshIcon />} text={t('refresh')} loading={query.isFetching}
              onClick={() => void query.refetch()} />
            {(held.has('operation.log:export') || held.has('operation.system.manage')) && (
              <Button icon={<DownloadIcon />} text={t('export')} loading={exporting} onClick={() => void download()}
                disabled={!page || page.totalCount === 0} data-testid="oplog-export" />
            )}
          </div>
        </form>
        {page === undefined ? (
          query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner size={30} />
        ) : page.data.length === 0 ? (
          <div data-testid="oplog-empty">
            <NonIdealState icon={<HistoryIcon />} title={t('empty')} description={t('emptyHint')} />
          </div>
        ) : (
          <>
            <OperationTable operations={page.data} stale={query.isPlaceholderData} />
            <PagerFooter {...paging.footer(page.totalCount)} disabled={query.isFetching} />
          </>
        )}
      </Card>
    </div>
  );
}
