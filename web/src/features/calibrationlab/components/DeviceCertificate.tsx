import { Button, Callout, Card, FileInput, FormGroup, Tag, TextArea } from '@blueprintjs/core';
import { DocumentShareIcon, EditIcon, ImportIcon, TickCircleIcon, AnnotationIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CALIBRATION_LIMITS,
  CERTIFICATE_STATUS,
  STATUS,
  useCorrectCertificate,
  useExplainResult,
  useImportCertificate,
  useIssueCertificate,
  useSaveResult,
  type CalibrationLine,
  type Certificate,
  type LabApplication,
} from '@/lib/api/calibrationLab';
import { ApiError } from '@/lib/http';
import { notify } from '@/lib/notify';
import { formOfContent, newResultForm } from '../resultForm';
import { ResultEditor } from './ResultEditor';

export interface DeviceCertificateProps {
  application: LabApplication;
  line: CalibrationLine;
  /** Every version of this device's certificate, oldest first. */
  versions: Certificate[];
}

type Editing = 'results' | 'import' | 'explain' | 'correct' | null;

const statusKey = (status: number) =>
  status === CERTIFICATE_STATUS.issued ? 'issued' : status === CERTIFICATE_STATUS.superseded ? 'superseded' : 'draft';

/** One device's certificate: its results entered, imported or explained while a draft, issued, corrected once issued. */
export function DeviceCertificate({ application, line, versions }: DeviceCertificateProps) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const [editing, setEditing] = useState<Editing>(null);
  const save = useSaveResult();
  const importCert = useImportCertificate();
  const explain = useExplainResult();
  const issue = useIssueCertificate();
  const correct = useCorrectCertificate();
  const applicationId = application.applicationId ?? 0;
  const current = versions.at(-1) ?? null;
  const atLab = application.status === STATUS.received || application.status === STATUS.inCalibration;
  const draft = current?.status === CERTIFICATE_STATUS.draft ? current : null;
  const issued = current?.status === CERTIFICATE_STATUS.issued ? current : null;
  const cancelled = application.status > STATUS.returned;

  const start = (what: Editing) => setEditing(editing === what ? null : what);
  const done = (message: string) => { setEditing(null); notify.success(message); };

  return (
    <Card className="jc-cl-device" elevation={0} data-testid="device-certificate" data-line={line.index}>
      <header className="jc-cl-device-head">
        <div>
          <strong>{line.index}. {line.model}</strong>
          <span className="jc-cl-muted"> · {line.serial}</span>
        </div>
        {current
          ? <Tag intent={issued ? 'success' : 'none'} data-testid="certificate-state">{t(`certificate.${statusKey(current.status)}`)}</Tag>
          : <Tag minimal data-testid="certificate-state">{t('certificate.none')}</Tag>}
      </header>

      {versions.slice().reverse().map((version) => (
        <div key={version.certificateId} className="jc-cl-version" data-testid="certificate-version"
          data-status={statusKey(version.status)} data-version={version.version}>
          <span className="jc-cl-version-title">
            {version.reference ?? t('certificate.draftTitle')} · {t('certificate.version', { version: version.version })}
          </span>
          <Tag minimal intent={version.status === CERTIFICATE_STATUS.superseded ? 'warning' : 'none'}>
            {t(`certificate.${statusKey(version.status)}`)}
          </Tag>
          {version.verdict && <Tag minimal intent={version.verdict === 'pass' ? 'success' : version.verdict === 'fail'
            ? 'danger' : 'warning'}>{t(`verdict.${version.verdict}`)}</Tag>}
          {version.issuedOn && <span className="jc-cl-muted">{t('certificate.issuedOn', { date: version.issuedOn })}</span>}
          {version.amendment && <span className="jc-cl-amendment">{t('certificate.amendment', { reason: version.amendment })}</span>}
        </div>
      ))}

      <div className="jc-cl-actions jc-cl-actions--start">
        {atLab && !issued && (
          <>
            <Button icon={<EditIcon />} text={draft ? t('certificate.edit') : t('certificate.enter')}
              onClick={() => start('results')} data-testid="certificate-enter" />
            <Button icon={<ImportIcon />} text={t('certificate.import')} onClick={() => start('import')} data-testid="certificate-import" />
          </>
        )}
        {atLab && draft && (
          <>
            <Button icon={<AnnotationIcon />} text={t('certificate.explain')} onClick={() => start('explain')}
              data-testid="certificate-explain" />
            <Button icon={<TickCircleIcon />} intent="primary" text={t('certificate.issue')} loading={issue.isPending}
              data-testid="certificate-issue"
              onClick={() => issue.mutate(draft.certificateId, { onSuccess: (c) => notify.success(t('certificate.issuedNotice', { reference: c.reference })) })} />
          </>
        )}
        {issued && !cancelled && (
          <Button icon={<DocumentShareIcon />} text={t('certificate.correct')} onClick={() => start('correct')}
            data-testid="certificate-correct" />
        )}
      </div>

      {editing === 'results' && (
        <ResultEditor
          initial={(draft && formOfContent(draft.content)) || newResultForm(application, line.index, '')}
          onCancel={() => setEditing(null)}
          onSave={async (content) => {
            await save.mutateAsync({ applicationId, lineIndex: line.index, content, exists: draft !== null });
            done(t('certificate.saved'));
          }} />
      )}
      {editing === 'correct' && issued && (
        <ResultEditor
          correction
          initial={formOfContent(issued.content) ?? newResultForm(application, line.index, '')}
          onCancel={() => setEditing(null)}
          onSave={async (content, reason) => {
            const made = await correct.mutateAsync({ certificateId: issued.certificateId, reason, content });
            done(t('certificate.corrected', { reference: made.reference }));
          }} />
      )}
      {editing === 'import' && (
        <ImportForm onCancel={() => setEditing(null)} onImport={async (certificate) => {
          await importCert.mutateAsync({ applicationId, lineIndex: line.index, certificate });
          done(t('certificate.imported'));
        }} />
      )}
      {editing === 'explain' && draft && (
        <ExplainForm initial={draft.content.remarks as string | null ?? ''} onCancel={() => setEditing(null)}
          onExplain={async (text) => {
            await explain.mutateAsync({ applicationId, lineIndex: line.index, explain: text });
            done(t('certificate.explained'));
          }} />
      )}
    </Card>
  );
}

/** The message of a refusal, field by field. */
function refusal(error: unknown, fallback: string): string {
  if (!(error instanceof ApiError)) return fallback;
  const fields = Object.entries(error.errors ?? {}).map(([name, messages]) => `${name}: ${messages.join(' ')}`);
  return fields.length ? fields.join('\n') : error.message;
}

/** A certificate's content as JSON (a file, or pasted), sent as importCert takes it. */
function ImportForm({ onImport, onCancel }: { onImport: (certificate: Record<string, unknown>) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async () => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      setProblem(t('import.notJson'));
      return;
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      setProblem(t('import.notObject'));
      return;
    }
    setBusy(true);
    try {
      await onImport(parsed as Record<string, unknown>);
    } catch (error) {
      setProblem(refusal(error, t('common:http.errorMessage')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="jc-cl-inline-form" data-testid="import-form">
      <FormGroup label={t('import.file')} labelFor="cl-import-file">
        <FileInput fill inputProps={{ id: 'cl-import-file', accept: 'application/json,.json' }} text={t('import.choose')}
          buttonText={t('import.browse')}
          onInputChange={(event) => {
            const file = event.currentTarget.files?.[0];
            if (file) void file.text().then((content) => { setText(content); setProblem(null); });
          }} />
      </FormGroup>
      <FormGroup label={t('import.json')} labelFor="cl-import-json" intent={problem ? 'danger' : 'none'}>
        <TextArea id="cl-import-json" fill rows={6} value={text} data-testid="import-json" className="jc-cl-code"
          onChange={(event) => { setText(event.currentTarget.value); setProblem(null); }} />
      </FormGroup>
      {problem && <Callout intent="danger" className="jc-cl-pre" data-testid="import-error">{problem}</Callout>}
      <div className="jc-cl-actions">
        <Button text={t('common:cancel')} onClick={onCancel} />
        <Button intent="primary" text={t('import.submit')} loading={busy} disabled={!text.trim()} onClick={() => void send()}
          data-testid="import-submit" />
      </div>
    </div>
  );
}

/** The lab's explanation of a device's results, printed as its certificate's remarks. */
function ExplainForm({ initial, onExplain, onCancel }: { initial: string; onExplain: (text: string) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation(['calibrationlab', 'common']);
  const [text, setText] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tooLong = [...text.trim()].length > CALIBRATION_LIMITS.remarks;
  const send = async () => {
    if (!text.trim() || tooLong) {
      setProblem(text.trim() ? t('error.tooLong', { max: CALIBRATION_LIMITS.remarks }) : t('error.required'));
      return;
    }
    setBusy(true);
    try {
      await onExplain(text.trim());
    } catch (error) {
      setProblem(refusal(error, t('common:http.errorMessage')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="jc-cl-inline-form" data-testid="explain-form">
      <FormGroup label={t('explain.label')} labelFor="cl-explain" helperText={problem ?? t('explain.hint')}
        intent={problem ? 'danger' : 'none'}>
        <TextArea id="cl-explain" fill autoResize value={text} data-testid="explain-text"
          onChange={(event) => { setText(event.currentTarget.value); setProblem(null); }} />
      </FormGroup>
      <div className="jc-cl-actions">
        <Button text={t('common:cancel')} onClick={onCancel} />
        <Button intent="primary" text={t('explain.submit')} loading={busy} onClick={() => void send()} data-testid="explain-submit" />
      </div>
    </div>
  );
}
