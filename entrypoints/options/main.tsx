import '@/entrypoints/shared/zod-setup';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import browser from 'webextension-polyfill';
import { OptionsForm } from '@/components/options-form';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import { loadEndpoint, saveEndpoint } from '../shared/endpoint-storage';

const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/;

async function save(settings: EndpointSettings): Promise<string> {
  const url = new URL(settings.baseUrl);
  let note = '';
  if (!LOOPBACK.test(url.hostname)) {
    const granted = await browser.permissions.request({ origins: [`${url.origin}/*`] }).catch(() => false);
    if (!granted) note = ' Access to this host was not granted; requests will work only if the server allows cross-origin calls.';
  }
  await saveEndpoint(settings);
  return `Saved.${note}`;
}

function OptionsApp() {
  const [initial, setInitial] = useState<EndpointSettings>();
  useEffect(() => void loadEndpoint().then(setInitial), []);
  return <OptionsForm initial={initial} onSave={save} />;
}

createRoot(document.getElementById('root')!).render(<OptionsApp />);
