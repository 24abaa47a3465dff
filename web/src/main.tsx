import './lib/jitlessZod';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/icons/lib/css/blueprint-icons.css';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import '@blueprintjs/table/lib/css/table.css';
import '@blueprintjs/datetime/lib/css/blueprint-datetime.css';
import './styles/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { createQueryClient, Providers } from './app/providers';
import { createRouter } from './app/router';
import { loadCustomPage } from './lib/api/customPage';
import { applyWhiteLabel } from './lib/whiteLabel';
import { loadEditionConfig } from './lib/config';
import { initI18n, initialLanguage } from './lib/i18n';
import { localiseBlueprintLabels } from './lib/i18n/blueprintLabels';
import { onTokenChangeInOtherTab } from './lib/storage';

async function start(): Promise<void> {
  const config = await loadEditionConfig();
  await initI18n(initialLanguage(config.defaultLanguage), config.defaultLanguage);
  localiseBlueprintLabels();
  applyWhiteLabel(await loadCustomPage());
  onTokenChangeInOtherTab();
  const queryClient = createQueryClient();
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers queryClient={queryClient}>
        <RouterProvider router={createRouter(queryClient)} />
      </Providers>
    </StrictMode>,
  );
}

void start();
