/** How providers, fields and camps are named; a name the catalogue does not know shows as the server sent it. */
import type { TFunction } from 'i18next';
import { CONSOLE_CAMP } from './api/payConfig';

export const providerName = (t: TFunction, provider: string) => t(`platforms:provider.${provider}`, { defaultValue: provider });
export const fieldLabel = (t: TFunction, name: string) => t(`platforms:field.${name}`, { defaultValue: name });
/** A short line under the keys and certificates: where to find them; '' for the other fields. */
export const fieldHelp = (t: TFunction, name: string) => t(`platforms:help.${name}`, { defaultValue: '' });
export const campName = (t: TFunction, camp: number) =>
  (camp === CONSOLE_CAMP ? t('platforms:camp.console') : t('platforms:camp.numbered', { camp }));
