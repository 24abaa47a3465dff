import { Button, Callout, Classes, HTMLTable, NonIdealState, Spinner, Tag, Tooltip } from '@blueprintjs/core';
import { DownloadIcon, ErrorIcon, HistoryIcon, RefreshIcon, ShieldIcon, TickCircleIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { usePaging } from '@/hooks/usePaging';
import { exportTrail, useFdaStatus, useTrail, useVerification, type Scope, type TrailRow } from '@/lib/api/fda';
import { useOperationLabels, type Operation } from '@/lib/api/operationLog';
import { saveFile } from '@/lib/saveFile';
import { formatInstant } from '@/lib/units';
import { firstKey, scopeOf, SubjectSelect, type SubjectKey } from '../subjects';

/** How much of a SHA-256 the table shows; the whole is in the tooltip and the export. */
const HASH_SHOWN = 12;
const OUTCOME_INTENT = { succeeded: 'success', refused: 'warning', failed: 'danger' } as const;

/**
 * The tamper-evident audit trail of the caller's own records or an organization's: whether the
 * chain verified (and the first broken link when it did not), verify again, the links newest first,
 * and the export whose first lines say whether it verified.
 */
export function TrailTab() {
  const { t } = useTranslation('fda');
  const subjects = useFdaStatus().data?.subjects;
  const [chosen, setChosen] = useState<SubjectKey | null>(null);
  if (subjects === undefined) return <Spinner size={30} />;
  const key = chosen ?? firstKey(subjects);
  return (
    <div className="jc-fda-panel" data-testid="fda-trail">
      <p className="jc-fda-intro">{t('trail.intro')}</p>
      <div className="jc-fda-toolbar">
        <SubjectSelect subjects={subjects} value={key} onChange={setChosen} />
      </div>
      <Trail key={key} scope={scopeOf(key)} />
    </div>
  );
}

function Trail({ scope }: { scope: Scope }) {
  const { t } = useTranslation('fda');
  const paging = usePaging();
  const query = useTrail(scope, paging.start, paging.pageSize);
  const page = query.data;
  // the same query as the status above: the table marks the link it names
  const broken = useVerification(scope).data?.firstBroken?.seq ?? null;
  const [exporting, setExporting] = useState(false);
  const download = async () => {
    setExporting(true);
    try {
      const file = await exportTrail(scope);
      saveFile(file.blob, file.fileName ?? 'audit-trail.xlsx');
    } catch {
      // the client has said why
    } finally {
      setExporting(false);
    }
  };
  return (
    <>
      <VerificationStatus scope={scope} onExport={() => void download()} exporting={exporting} />
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner size={30} />
      ) : page.data.length === 0 ? (
        <div data-testid="trail-empty">
          <NonIdealState icon={<HistoryIcon />} title={t('trail.empty')} description={t('trail.emptyHint')} />
        </div>
      ) : (
        <>
          <TrailTable rows={page.data} stale={query.isPlaceholderData} broken={broken} />
          <PagerFooter {...paging.footer(page.totalCount)} disabled={query.isFetching} />
        </>
      )}
    </>
  );
}

function VerificationStatus({ scope, onExport, exporting }: { scope: Scope; onExport: () => void; exporting: boolean }) {
  const { t, i18n } = useTranslation('fda');
  const verification = useVerification(scope);
  const result = verification.data;
  const actions = (
    <div className="jc-fda-buttons">
      <Button icon={<RefreshIcon />} text={t('trail.verify')} loading={verification.isFetching}
        onClick={() => void verification.refetch()} data-testid="trail-verify" />
      <Button icon={<DownloadIcon />} text={t('trail.export')} loading={exporting} onClick={onExport} data-testid="trail-export" />
    </div>
  );
  if (!result) {
    return verification.isError
      ? <Callout intent="warning" icon={<ErrorIcon />} title={t('trail.verifyFailed')} data-testid="trail-verification">{actions}</Callout>
      : <Callout icon={<ShieldIcon />} title={t('trail.verifying')} data-testid="trail-verification"><Spinner size={16} /></Callout>;
  }
  const checked = formatInstant(result.checkedAt, i18n.language);
  const broken = result.firstBroken;
  return (
    <Callout intent={result.verified ? 'success' : 'danger'} icon={result.verified ? <TickCircleIcon /> : <ErrorIcon />}
      title={t(result.verified ? 'trail.verified' : 'trail.broken')} data-testid="trail-verification" data-verified={result.verified}>
      <p className="jc-fda-callout-text">
        {result.verified ? t('trail.verifiedText', { count: result.links, time: checked }) : t('trail.brokenText', { count: result.links, time: checked })}
      </p>
      {broken && (
        <p className="jc-fda-callout-text" data-testid="trail-first-broken">
          {t('trail.firstBroken', {
            seq: broken.seq,
            operation: broken.operationId,
            time: formatInstant(broken.at, i18n.language),
            reason: broken.reasonText,
          })}
        </p>
      )}
      {actions}
    </Callout>
  );
}

function Hash({ value, label }: { value: string; label: string }) {
  return (
    <Tooltip content={<span className="jc-fda-hash-full">{`${label}: ${value}`}</span>} placement="top">
      <code className="jc-fda-hash" tabIndex={0}>{value.slice(0, HASH_SHOWN)}</code>
    </Tooltip>
  );
}

/** An entry of the operation log as a link of the trail shows it: time, user, call and outcome, what changed. */
function OperationCells({ operation }: { operation: Operation }) {
  const { t, i18n } = useTranslation(['fda', 'operationLog']);
  const label = useOperationLabels();
  return (
    <>
      <td className="jc-fda-time" data-label={t('trail.column.at')}>{formatInstant(operation.at, i18n.language)}</td>
      <td className="jc-fda-wrap" data-label={t('trail.column.user')}>
        {operation.userName ?? <span className={Classes.TEXT_MUTED}>{t('operationLog:anonymous')}</span>}
      </td>
      <td className="jc-fda-wrap" data-label={t('trail.column.action')}>
        <span title={operation.action}>{label('action', operation.action)}</span>
        {operation.outcome !== 'succeeded' && (
          <Tag minimal intent={OUTCOME_INTENT[operation.outcome]} className="jc-fda-outcome">
            {t(`operationLog:outcome.${operation.outcome}`)}
          </Tag>
        )}
      </td>
      <td className="jc-fda-wrap" data-label={t('trail.column.objects')}>
        {operation.changes.length === 0 ? <span className={Classes.TEXT_MUTED}>{t('operationLog:noChanges')}</span>
          : operation.changes.map((change, index) => (
            <div key={index}>
              {label('object', change.objectType)}
              {change.objectLabel ? ` “${change.objectLabel}”` : change.objectId ? ` #${change.objectId}` : ''}
              <span className={Classes.TEXT_MUTED}>{` · ${t('trail.fields', { count: Object.keys(change.fields).length })}`}</span>
            </div>
          ))}
      </td>
    </>
  );
}

function TrailTable({ rows, stale, broken }: { rows: TrailRow[]; stale: boolean; /** The first broken link's seq. */ broken: number | null }) {
  const { t } = useTranslation('fda');
  return (
    <div className="jc-fda-table-wrap">
      <HTMLTable compact striped className={`jc-fda-table jc-fda-cards${stale ? ' jc-stale' : ''}`} data-testid="trail-table">
        <thead>
          <tr>
            <th scope="col">{t('trail.column.seq')}</th>
            <th scope="col">{t('trail.column.at')}</th>
            <th scope="col">{t('trail.column.user')}</th>
            <th scope="col">{t('trail.column.action')}</th>
            <th scope="col">{t('trail.column.objects')}</th>
            <th scope="col">{t('trail.column.hash')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(({ seq, hash, previousHash, operation }) => (
            <tr key={seq} data-testid="trail-row" data-seq={seq} className={seq === broken ? 'jc-fda-broken' : undefined}
              data-broken={seq === broken || undefined}>
              <td className="jc-fda-num" data-label={t('trail.column.seq')}>
                {seq === broken && <ErrorIcon className="jc-fda-broken-icon" aria-label={t('trail.brokenHere')} />}
                {seq}
              </td>
              {operation ? <OperationCells operation={operation} /> : (
                // the entry is gone from the log: the chain still holds the link, and the verification names it
                <td colSpan={4} className="jc-fda-wrap jc-fda-missing" data-label={t('trail.column.objects')} data-testid="trail-missing">
                  {t('trail.missing')}
                </td>
              )}
              <td className="jc-fda-hashes" data-label={t('trail.column.hash')}>
                <Hash value={hash} label={t('trail.hash')} />
                <span className="jc-fda-muted jc-fda-prev">
                  ← <Hash value={previousHash} label={t('trail.previousHash')} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
