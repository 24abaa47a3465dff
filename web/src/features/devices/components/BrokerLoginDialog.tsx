import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, HTMLTable, InputGroup, Spinner } from '@blueprintjs/core';
import { DuplicateIcon, KeyIcon, WarningSignIcon } from '@blueprintjs/icons';
import { useTranslation } from 'react-i18next';
import './manage.css';
import { notify } from '@/lib/notify';
import { topicOf, useConnection, type BrokerLogin } from '../api/manage';

interface BrokerLoginDialogProps {
  /** The login to show; null: closed. */
  login: BrokerLogin | null;
  /** The device's name, for the title. */
  deviceName: string;
  onClose: () => void;
}

async function copy(text: string, done: string, failed: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    notify.success(done);
  } catch {
    notify.error(failed);
  }
}

/** A button that copies `text` (`label` names what, for its tooltip and screen readers). */
export function CopyButton({ text, label, testId }: { text: string; label: string; testId?: string }) {
  const { t } = useTranslation('devices');
  return (
    <Button
      variant="minimal"
      icon={<DuplicateIcon />}
      aria-label={t('login.copy', { what: label })}
      title={t('login.copy', { what: label })}
      onClick={() => void copy(text, t('login.copied'), t('login.copyFailed'))}
      data-testid={testId}
    />
  );
}

/**
 * A device's MQTT login, shown this once (after adding it or rotating its password), with what a
 * technician needs to connect it: host, port, topics and an example reading.
 */
export function BrokerLoginDialog({ login, deviceName, onClose }: BrokerLoginDialogProps) {
  const { t } = useTranslation('devices');
  const connection = useConnection(login !== null);
  const guid = login?.username ?? '';
  return (
    <Dialog
      isOpen={login !== null}
      onClose={onClose}
      title={t('login.title', { name: deviceName })}
      icon={<KeyIcon />}
      className="jc-login-dialog"
      canOutsideClickClose={false}
    >
      {login && (
        <>
          <DialogBody>
            <Callout intent="warning" icon={<WarningSignIcon />} compact data-testid="login-once-warning">
              {t('login.onlyOnce')}
            </Callout>
            <div className="jc-login-fields">
              <label className={Classes.LABEL}>
                {t('login.username')}
                <InputGroup readOnly value={login.username} className="jc-mono" rightElement={<CopyButton text={login.username} label={t('login.username')} testId="copy-username" />} data-testid="login-username" />
              </label>
              <label className={Classes.LABEL}>
                {t('login.password')}
                <InputGroup readOnly value={login.password} className="jc-mono" rightElement={<CopyButton text={login.password} label={t('login.password')} testId="copy-password" />} data-testid="login-password" />
              </label>
            </div>
            <h4 className="jc-login-heading">{t('login.connection')}</h4>
            {connection.data ? (
              <>
                <HTMLTable compact className="jc-login-table" data-testid="login-connection">
                  <tbody>
                    <tr>
                      <th scope="row">{t('login.host')}</th>
                      <td className="jc-mono">{connection.data.host}</td>
                    </tr>
                    <tr>
                      <th scope="row">{t('login.port')}</th>
                      <td className="jc-mono">
                        {connection.data.port} {connection.data.tls ? '(TLS)' : ''}
                      </td>
                    </tr>
                    <tr>
                      <th scope="row">{t('login.clientId')}</th>
                      <td className="jc-mono">{guid}</td>
                    </tr>
                    <tr>
                      <th scope="row">{t('login.publishes')}</th>
                      <td className="jc-mono">
                        <div>{topicOf(connection.data.topics.telemetry, guid)}</div>
                        <div>{topicOf(connection.data.topics.status, guid)}</div>
                        <div>{topicOf(connection.data.topics.acks, guid)}</div>
                      </td>
                    </tr>
                    <tr>
                      <th scope="row">{t('login.listens')}</th>
                      <td className="jc-mono">{topicOf(connection.data.topics.commands, guid)}</td>
                    </tr>
                  </tbody>
                </HTMLTable>
                <div className={Classes.TEXT_MUTED}>{t('login.example')}</div>
                <pre className="jc-login-example" data-testid="login-example">{connection.data.examplePayload}</pre>
              </>
            ) : (
              <Spinner size={20} />
            )}
          </DialogBody>
          <DialogFooter actions={<Button intent="primary" text={t('login.done')} onClick={onClose} data-testid="login-done" />} />
        </>
      )}
    </Dialog>
  );
}
