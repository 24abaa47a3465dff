import { Button, FormGroup, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { EndorsedIcon, ErrorIcon, SearchIcon } from '@blueprintjs/icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PagerFooter } from '@/components/PagerFooter';
import { SignedAt, ValidityTag } from '@/components/Signatures';
import { usePaging } from '@/hooks/usePaging';
import { FDA_LIMITS, MEANINGS, RECORD_TYPES, useFdaStatus, useSignatures, type SignatureFilter } from '@/lib/api/fda';
import { periodOf } from '../dates';
import { firstKey, scopeOf, SubjectSelect, type SubjectKey } from '../subjects';

interface Fields {
  subject: SubjectKey | null;
  signer: string;
  meaning: string;
  recordType: string;
  from: string;
  to: string;
}

const EMPTY: Fields = { subject: null, signer: '', meaning: '', recordType: '', from: '', to: '' };

function filterOf(fields: Fields, subject: SubjectKey): SignatureFilter {
  return {
    ...scopeOf(subject),
    signerName: fields.signer.trim() || undefined,
    meaning: fields.meaning || undefined,
    recordType: fields.recordType || undefined,
    ...periodOf(fields.from, fields.to),
  };
}

/** The electronic signatures on the records of the caller's own or an organization's, newest first, filtered. */
export function SignaturesTab() {
  const subjects = useFdaStatus().data?.subjects;
  if (subjects === undefined) return <Spinner size={30} />;
  return <SignatureSearch initial={firstKey(subjects)} subjects={subjects} />;
}

function SignatureSearch({ initial, subjects }: { initial: SubjectKey; subjects: Parameters<typeof SubjectSelect>[0]['subjects'] }) {
  const { t } = useTranslation('fda');
  const [fields, setFields] = useState<Fields>({ ...EMPTY, subject: initial });
  const [filter, setFilter] = useState<SignatureFilter>(() => filterOf(fields, initial));
  const paging = usePaging();
  const query = useSignatures(filter, paging.start, paging.pageSize);
  const page = query.data;
  const set = (name: keyof Fields) => (event: { currentTarget: { value: string } }) => {
    const { value } = event.currentTarget;
    setFields((current) => ({ ...current, [name]: value }));
  };
  const search = (event?: FormEvent) => {
    event?.preventDefault();
    setFilter(filterOf(fields, fields.subject ?? initial));
    paging.restart();
  };
  const reset = () => {
    const fresh = { ...EMPTY, subject: fields.subject };
    setFields(fresh);
    setFilter(filterOf(fresh, fields.subject ?? initial));
    paging.restart();
  };
  const badRange = Boolean(fields.from && fields.to && fields.from > fields.to);

  return (
    <div className="jc-fda-panel" data-testid="fda-signatures">
      <p className="jc-fda-intro">{t('signatures.intro')}</p>
      <form className="jc-fda-filters" onSubmit={search} data-testid="signature-filters">
        <SubjectSelect subjects={subjects} value={fields.subject ?? initial}
          onChange={(subject) => setFields((current) => ({ ...current, subject }))} />
        <FormGroup label={t('signatures.filter.signer')} labelFor="fda-sig-signer">
          <InputGroup id="fda-sig-signer" value={fields.signer} maxLength={FDA_LIMITS.userName} onChange={set('signer')}
            data-testid="signature-filter-signer" />
        </FormGroup>
        <FormGroup label={t('signatures.filter.meaning')} labelFor="fda-sig-meaning">
          <HTMLSelect id="fda-sig-meaning" value={fields.meaning} onChange={set('meaning')} data-testid="signature-filter-meaning">
            <option value="">{t('any')}</option>
            {MEANINGS.map((m) => <option key={m} value={m}>{t(`components:signature.meanings.${m}`)}</option>)}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('signatures.filter.record')} labelFor="fda-sig-record">
          <HTMLSelect id="fda-sig-record" value={fields.recordType} onChange={set('recordType')} data-testid="signature-filter-record">
            <option value="">{t('any')}</option>
            {RECORD_TYPES.map((type) => <option key={type} value={type}>{t(`record.${type}`)}</option>)}
          </HTMLSelect>
        </FormGroup>
        <FormGroup label={t('from')} labelFor="fda-sig-from">
          <InputGroup id="fda-sig-from" type="date" value={fields.from} onChange={set('from')} data-testid="signature-filter-from" />
        </FormGroup>
        <FormGroup label={t('to')} labelFor="fda-sig-to" intent={badRange ? 'danger' : 'none'} helperText={badRange ? t('badRange') : undefined}>
          <InputGroup id="fda-sig-to" type="date" value={fields.to} onChange={set('to')} intent={badRange ? 'danger' : 'none'}
            data-testid="signature-filter-to" />
        </FormGroup>
        <div className="jc-fda-buttons">
          <Button type="submit" intent="primary" icon={<SearchIcon />} text={t('search')} disabled={badRange} data-testid="signature-search" />
          <Button text={t('reset')} onClick={reset} />
        </div>
      </form>
      {page === undefined ? (
        query.isError ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} /> : <Spinner size={30} />
      ) : page.data.length === 0 ? (
        <div data-testid="signatures-empty">
          <NonIdealState icon={<EndorsedIcon />} title={t('signatures.empty')} description={t('signatures.emptyHint')} />
        </div>
      ) : (
        <>
          <div className="jc-fda-table-wrap">
            <HTMLTable compact striped className={`jc-fda-table jc-fda-cards${query.isPlaceholderData ? ' jc-stale' : ''}`} data-testid="signature-table">
              <thead>
                <tr>
                  <th scope="col">{t('signatures.column.signedAt')}</th>
                  <th scope="col">{t('signatures.column.record')}</th>
                  <th scope="col">{t('signatures.column.signer')}</th>
                  <th scope="col">{t('signatures.column.meaning')}</th>
                  <th scope="col">{t('signatures.column.reason')}</th>
                  <th scope="col">{t('signatures.column.status')}</th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((row) => (
                  <tr key={row.id} data-testid="signature-row" data-valid={row.valid}>
                    <td className="jc-fda-when" data-label={t('signatures.column.signedAt')}><SignedAt signature={row} /></td>
                    <td className="jc-fda-wrap" data-label={t('signatures.column.record')}>
                      <Tag minimal className="jc-fda-record-tag">{t(`record.${row.recordType}`, { defaultValue: row.recordType })}</Tag>
                      <div>{row.recordLabel}</div>
                    </td>
                    <td className="jc-fda-wrap" data-label={t('signatures.column.signer')}>
                      <div className="jc-fda-strong">{row.signerName}</div>
                      {row.signerLogin !== row.signerName && <div className="jc-fda-muted">{row.signerLogin}</div>}
                    </td>
                    <td className="jc-fda-wrap" data-label={t('signatures.column.meaning')}>
                      {row.meaningText}
                      {row.endorsementName && <div className="jc-fda-muted">{t('signatures.by', { name: row.endorsementName })}</div>}
                    </td>
                    <td className="jc-fda-wrap jc-fda-reason" data-label={t('signatures.column.reason')}>{row.reason ?? <span className="jc-fda-muted">—</span>}</td>
                    <td data-label={t('signatures.column.status')}><ValidityTag valid={row.valid} /></td>
                  </tr>
                ))}
              </tbody>
            </HTMLTable>
          </div>
          <PagerFooter {...paging.footer(page.totalCount)} disabled={query.isFetching} />
        </>
      )}
    </div>
  );
}
