import { FocusStyleManager } from '@blueprintjs/core';
import { useEffect } from 'react';
import { applySettings, settingsStore } from '../settings/settings';

/** Every frame draws with the stored colour weakness and theme colour; focus rings show for keyboard use only. */
export function useStoredLook(): void {
  useEffect(() => {
    FocusStyleManager.onlyShowFocusOnTabs();
    applySettings(settingsStore.get());
  }, []);
}
