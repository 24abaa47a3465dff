import { Button, Callout, Card, FormGroup, HTMLSelect, Icon, NonIdealState, Spinner, Switch, Tag } from '@blueprintjs/core';
import { ErrorIcon, LockIcon, PeopleIcon, TimeIcon, UnlockIcon, UserIcon } from '@blueprintjs/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText, loadSessionPermissions } from '@/app/effects';
import { useSigning } from '@/components/SignatureDialog';
import {
  disableFda, enableFda, fdaKeys, signatureNeeds, unlockSigning, useFdaStatus, useSigningState, type FdaSubject,
} from '@/lib/api/fda';
import { useMembers } from '@/lib/api/organizationPeople';
import { updateIdleProtection } from '@/lib/api/profile';
import { IDLE_TIMEOUT_MS } from '@/lib/idle';
import { notify } from '@/lib/notify';
import { usePermitted } from '@/lib/permissions';
import { useSession } from '@/lib/session';
import { formatInstant } from '@/lib/units';
import { scopeOf, keyOf, useSubjectName } from '../subjects';

/**
 * FDA mode per subject: on and off for the caller's own records and for each organization it may
 * switch. Turning it on again says it is on already (the server's answer); turning it off needs a
 * signature with a reason and stays in the audit trail. Below: idle protection, and unlocking a
 * member's signing after a lockout.
 */
export function ModeTab() {
  const { t } = useTranslation('fda');
  const status = useFdaStatus();
  const subjects = status.data?.subjects;
  if (subjects === undefined) {
    return status.isError
      ? <NonIdealState icon={<ErrorIcon />} title={t('loadFailed')} action={<Button text={t('retry')} onClick={() => void status.refetch()} />} />
      : <Spinner size={30} />;
  }
  const managed = subjects.filter((s) => s.organizationId !== null && s.changeable);
  return (
    <div className="jc-fda-panel" data-testid="fda-mode">
      <p className="jc-fda-intro">{t('mode.intro')}</p>
      <SigningLock />
      <div className="jc-fda-subjects">
        {subjects.map((subject) => <SubjectCard key={keyOf(subject)} subject={subject} />)}
      </div>
      <IdleProtection />
      {managed.length > 0 && <UnlockSigning organizations={managed} />}
    </div>
  );
}

/** The caller's own signing, when too many wrong passwords locked it. */
function SigningLock() {
  const { t, i18n } = useTranslation('fda');
  const state = useSigningState().data;
  if (!state?.locked) return null;
  return (
    <Callout intent="danger" icon={<LockIcon />} compact data-testid="fda-signing-locked">
      {state.lockedUntil ? t('mode.locked', { time: formatInstant(state.lockedUntil, i18n.language, false) }) : t('mode.lockedNoTime')}
    </Callout>
  );
}

function SubjectCard({ subject }: { subject: FdaSubject }) {
  const { t } = useTranslation('fda');
  const nameOf = useSubjectName();
  const queryClient = useQueryClient();
  const signing = useSigning();
  const mayEnable = usePermitted('fda', 'enable');
  const mayDisable = usePermitted('fda', 'disable');
  const [busy, setBusy] = useState<'on' | 'off' | null>(null);
  const own = subject.organizationId === null;
  const scope = scopeOf(keyOf(subject));
  const name = nameOf(subject);

  const settled = async (changed: boolean, on: boolean) => {
    if (changed) notify.success(t(on ? 'mode.turnedOn' : 'mode.turnedOff', { name }));
    // the repeated action: the server says there was nothing to do
    else notify.warning(t(on ? 'mode.alreadyOn' : 'mode.alreadyOff'));
    signatureNeeds.forget();
    // The account's own switch is the profile's enableFda: idle protection follows it.
    await Promise.allSettled([queryClient.invalidateQueries({ queryKey: fdaKeys.all }), own ? loadSessionPermissions() : null]);
  };

  const turnOn = async () => {
    setBusy('on');
    try {
      const answer = await enableFda(scope);
      await settled(answer.changed, true);
    } catch (error) {
      notify.error(failureText(error));
    } finally {
      setBusy(null);
    }
  };

  const turnOff = async () => {
    setBusy('off');
    try {
      // Off already (as far as the page knows): asked unsigned, the server says there is nothing to do.
      const answer = await signing.signIfNeeded(
        { title: t('mode.disableTitle'), label: name, intro: t('mode.disableIntro'), recordType: 'fda', meanings: ['approved'],
          reasonRequired: true, submitText: t('mode.disableSubmit') },
        (signature) => disableFda(scope, signature),
        { required: subject.enabled },
      );
      if (answer) await settled(answer.changed, false);
    } catch (error) {
      notify.error(failureText(error));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card elevation={0} className={`jc-fda-subject${subject.enabled ? ' is-on' : ''}`} data-testid="fda-subject"
      data-subject={keyOf(subject)} data-enabled={subject.enabled}>
      {signing.dialog}
      <div className="jc-fda-subject-main">
        <Icon icon={own ? <UserIcon /> : <PeopleIcon />} size={20} className="jc-fda-subject-icon" />
        <div className="jc-fda-subject-text">
          <div className="jc-fda-subject-name">{name}</div>
          <div className="jc-fda-muted">{own ? t('mode.ownHint') : t('mode.organizationHint')}</div>
        </div>
        <Tag round large intent={subject.enabled ? 'success' : 'none'} minimal={!subject.enabled} data-testid="fda-subject-state">
          {t(subject.enabled ? 'mode.on' : 'mode.off')}
        </Tag>
      </div>
      {subject.changeable ? (
        <div className="jc-fda-subject-actions">
          <Button text={t('mode.enable')} intent={subject.enabled ? 'none' : 'success'} loading={busy === 'on'}
            disabled={!mayEnable || busy !== null} onClick={() => void turnOn()} data-testid="fda-enable" />
          <Button text={t('mode.disable')} variant={subject.enabled ? 'solid' : 'outlined'} loading={busy === 'off'}
            disabled={!mayDisable || busy !== null} onClick={() => void turnOff()} data-testid="fda-disable" />
          <span className="jc-fda-muted jc-fda-subject-note">{t('mode.disableNote')}</span>
        </div>
      ) : (
        <p className="jc-fda-muted jc-fda-subject-note" data-testid="fda-not-changeable">{t('mode.notChangeable')}</p>
      )}
    </Card>
  );
}

/** Idle protection (spec 000 section 4): sign out after five idle minutes, while FDA mode is on for the own records. */
function IdleProtection() {
  const { t } = useTranslation('fda');
  const profile = useSession().info?.userProfile;
  const [saving, setSaving] = useState(false);
  if (!profile) return null;
  const on = profile.enableProtect === 1;
  const toggle = async () => {
    setSaving(true);
    try {
      await updateIdleProtection(on ? 0 : 1);
      await loadSessionPermissions();
      notify.success(t(on ? 'idle.turnedOff' : 'idle.turnedOn'));
    } catch (error) {
      notify.error(failureText(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Card elevation={0} className="jc-fda-section" data-testid="fda-idle">
      <div className="jc-fda-section-head">
        <Icon icon={<TimeIcon />} />
        <h3 className="jc-fda-section-title">{t('idle.title')}</h3>
      </div>
      <p className="jc-fda-muted">{t('idle.text', { minutes: IDLE_TIMEOUT_MS / 60_000 })}</p>
      <Switch checked={on} disabled={saving} onChange={() => void toggle()} label={t('idle.switch')} data-testid="fda-idle-switch" />
      {on && profile.enableFda !== 1 && (
        <Callout compact intent="warning" data-testid="fda-idle-waiting">{t('idle.waiting')}</Callout>
      )}
      {on && profile.enableFda === 1 && (
        <Callout compact intent="success" data-testid="fda-idle-active">{t('idle.active')}</Callout>
      )}
    </Card>
  );
}

/** An administrator lets a member sign again after five wrong passwords locked their signing. */
function UnlockSigning({ organizations }: { organizations: readonly FdaSubject[] }) {
  const { t } = useTranslation('fda');
  const [organizationId, setOrganizationId] = useState<number>(organizations[0]!.organizationId!);
  const members = useMembers(organizationId).data?.members ?? [];
  const [accountId, setAccountId] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = members.find((m) => m.accountId === accountId) ?? null;
  const unlock = async () => {
    if (!chosen) return;
    setBusy(true);
    try {
      const name = chosen.realName ?? chosen.userName;
      const answer = await unlockSigning(chosen.accountId);
      if (answer.changed) notify.success(t('unlock.done', { name }));
      else notify.warning(t('unlock.notLocked', { name })); // nothing to unlock: the repeated action says so
    } catch (error) {
      notify.error(failureText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card elevation={0} className="jc-fda-section" data-testid="fda-unlock">
      <div className="jc-fda-section-head">
        <Icon icon={<UnlockIcon />} />
        <h3 className="jc-fda-section-title">{t('unlock.title')}</h3>
      </div>
      <p className="jc-fda-muted">{t('unlock.text')}</p>
      <div className="jc-fda-filters">
        {organizations.length > 1 && (
          <FormGroup label={t('unlock.organization')} labelFor="fda-unlock-org">
            <HTMLSelect id="fda-unlock-org" value={organizationId}
              onChange={(event) => { setOrganizationId(Number(event.currentTarget.value)); setAccountId(null); }}
              options={organizations.map((o) => ({ value: o.organizationId!, label: o.name }))} />
          </FormGroup>
        )}
        <FormGroup label={t('unlock.member')} labelFor="fda-unlock-member">
          <HTMLSelect id="fda-unlock-member" value={accountId ?? ''} data-testid="fda-unlock-member"
            onChange={(event) => setAccountId(event.currentTarget.value ? Number(event.currentTarget.value) : null)}>
            <option value="">{t('unlock.choose')}</option>
            {members.map((m) => (
              <option key={m.accountId} value={m.accountId}>{m.realName ? `${m.realName} (${m.userName})` : m.userName}</option>
            ))}
          </HTMLSelect>
        </FormGroup>
        <div className="jc-fda-buttons">
          <Button icon={<UnlockIcon />} text={t('unlock.action')} disabled={!chosen} loading={busy} onClick={() => void unlock()}
            data-testid="fda-unlock-submit" />
        </div>
      </div>
    </Card>
  );
}
