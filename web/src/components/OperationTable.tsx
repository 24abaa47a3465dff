import { Classes, HTMLTable, Tag } from '@blueprintjs/core';
import { useTranslation } from 'react-i18next';
import { useOperationLabels, type Change, type LabelOf, type Operation } from '@/lib/api/operationLog';
import { formatInstant } from '@/lib/units';
import './operationTable.css';

const INTENT = { succeeded: 'success', refused: 'warning', failed: 'danger' } as const;

/** A value of a change as the log shows it: none as a dash, text as it is, the rest as JSON. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function ChangeLine({ change, label }: { change: Change; label: LabelOf }) {
  const fields = Object.entries(change.fields);
  return (
    <div className="jc-oplog-change" data-testid="oplog-change">
      <div className="jc-oplog-object">
        {label('object', change.objectType)}{change.objectLabel ? ` “${change.objectLabel}”` : change.objectId ? ` #${change.objectId}` : ''}
      </div>
      <ul className="jc-oplog-fields">
        {fields.map(([name, [before, after]]) => (
          <li key={name}>
            <span className="jc-oplog-field">{label('field', name)}</span>: {shown(before)} <span aria-hidden>→</span> {shown(after)}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Entries of the operation log: time in the user's zone, user, address, call, what changed (field: old → new), outcome. */
export function OperationTable({ operations, stale, showAddress = true }: {
  /** The entries, newest first. */
  operations: Operation[];
  /** The rows are a previous page's while the next loads. */
  stale?: boolean;
  /** The client address column (the device tab leaves it out on narrow screens). */
  showAddress?: boolean;
}) {
  const { t, i18n } = useTranslation('operationLog');
  const label = useOperationLabels();
  return (
    <div className="jc-oplog-table-wrap">
      <HTMLTable compact striped className={stale ? 'jc-oplog-table jc-stale' : 'jc-oplog-table'} data-testid="oplog-table">
        <thead>
          <tr>
            <th scope="col">{t('column.at')}</th>
            <th scope="col">{t('column.user')}</th>
            {showAddress && <th scope="col" className="jc-oplog-wide">{t('column.address')}</th>}
            <th scope="col">{t('column.action')}</th>
            <th scope="col">{t('column.changes')}</th>
            <th scope="col">{t('column.outcome')}</th>
          </tr>
        </thead>
        <tbody>
          {operations.map((o) => (
            <tr key={o.id} data-testid="oplog-row" data-action={o.action} data-outcome={o.outcome}>
              <td className="jc-oplog-nowrap">{formatInstant(o.at, i18n.language)}</td>
              <td>{o.userName ?? <span className={Classes.TEXT_MUTED}>{t('anonymous')}</span>}</td>
              {showAddress && <td className="jc-oplog-wide jc-oplog-nowrap">{o.clientAddress ?? ''}</td>}
              <td title={o.action}>{label('action', o.action)}</td>
              <td className="jc-oplog-changes">
                {o.changes.length === 0 ? <span className={Classes.TEXT_MUTED}>{t('noChanges')}</span>
                  : o.changes.map((c, index) => <ChangeLine key={index} change={c} label={label} />)}
              </td>
              <td><Tag minimal intent={INTENT[o.outcome]}>{t(`outcome.${o.outcome}`)}{o.outcome === 'succeeded' ? '' : ` (${o.status})`}</Tag></td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
