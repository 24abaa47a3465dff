import { Button, Tooltip } from '@blueprintjs/core';
import { FullscreenIcon, MinimizeIcon } from '@blueprintjs/icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '@/lib/notify';
import { browser } from '../browser';

/** Enters and leaves full screen; browsers without it get a message saying so. */
export function FullScreenToggle() {
  const { t } = useTranslation('layout');
  const [full, setFull] = useState(() => browser.isFullscreen());
  useEffect(() => {
    const onChange = () => setFull(browser.isFullscreen());
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const label = t(full ? 'fullscreen.exit' : 'fullscreen.enter');
  const toggle = () => {
    if (!browser.fullscreenSupported()) {
      notify.warning(t('fullscreen.unsupported'));
      return;
    }
    browser.toggleFullscreen().catch(() => notify.warning(t('fullscreen.unsupported')));
  };
  return (
    <Tooltip content={label} placement="bottom">
      <Button variant="minimal" icon={full ? <MinimizeIcon /> : <FullscreenIcon />} aria-label={label} data-testid="fullscreen" onClick={toggle} />
    </Tooltip>
  );
}
