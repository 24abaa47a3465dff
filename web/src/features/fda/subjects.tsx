import { FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { FdaSubject, Scope } from '@/lib/api/fda';

/** A subject as a select names it: `own` (the caller's own records) or `o:<organizationId>`. */
export type SubjectKey = string;
export const OWN: SubjectKey = 'own';

export const keyOf = (subject: Pick<FdaSubject, 'organizationId'>): SubjectKey =>
  subject.organizationId === null ? OWN : `o:${subject.organizationId}`;

/** What a call is scoped with: nothing for the caller's own records, else the organization. */
export function scopeOf(key: SubjectKey): Scope {
  const id = key.startsWith('o:') ? Number(key.slice(2)) : NaN;
  return Number.isInteger(id) && id > 0 ? { organizationId: id } : {};
}

/** The subject a tab starts with: the first where FDA is on, else the first listed. */
export function firstKey(subjects: readonly FdaSubject[] | undefined): SubjectKey {
  const chosen = subjects?.find((s) => s.enabled) ?? subjects?.[0];
  return chosen ? keyOf(chosen) : OWN;
}

/** A subject's name as the page writes it: the caller's own records say so. */
export function useSubjectName() {
  const { t } = useTranslation('fda');
  return (subject: FdaSubject) => (subject.organizationId === null ? t('subject.own', { name: subject.name }) : subject.name);
}

/** Whose records a tab shows: the caller's own, or one of its organizations'. */
export function SubjectSelect({ subjects, value, onChange, testId = 'fda-subject-select' }: {
  subjects: readonly FdaSubject[];
  value: SubjectKey;
  onChange: (key: SubjectKey) => void;
  testId?: string;
}) {
  const { t } = useTranslation('fda');
  const nameOf = useSubjectName();
  const id = useId();
  return (
    <FormGroup label={t('subject.label')} labelFor={id} className="jc-fda-subject-field">
      <HTMLSelect id={id} value={value} onChange={(event) => onChange(event.currentTarget.value)} data-testid={testId}
        options={subjects.map((s) => ({ value: keyOf(s), label: `${nameOf(s)}${s.enabled ? '' : ` · ${t('subject.off')}`}` }))} />
    </FormGroup>
  );
}
