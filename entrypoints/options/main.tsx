import '@/entrypoints/shared/zod-setup';
import './profiles.css';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import browser from 'webextension-polyfill';
import { EndpointProfilesForm } from '@/components/endpoint-profiles-form';
import { listModels } from '@/lib/providers/list-models';
import { isLoopbackUrl } from '@/lib/providers/loopback-url';
import { testConnection } from '@/lib/providers/test-connection';
import type { EndpointProfiles } from '@/lib/settings/endpoint-profiles';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import { loadEndpointProfiles, saveEndpointProfiles } from '../shared/endpoint-storage';

/**
 * Asks for the host at the moment the user saves or tests (not at install); servers on this machine need
 * none. Called before any await so the click still counts as the user's gesture.
 */
function requestHost(settings: EndpointSettings): Promise<string> {
  if (isLoopbackUrl(settings.baseUrl)) return Promise.resolve('');
  const origin = new URL(settings.baseUrl).origin;
  return browser.permissions
    .request({ origins: [`${origin}/*`] })
    .catch(() => false)
    .then((granted) => (granted ? '' : ` Access to ${origin} was not granted; requests work only if that server allows cross-origin calls.`));
}

function OptionsApp() {
  const [profiles, setProfiles] = useState<EndpointProfiles>();
  useEffect(() => void loadEndpointProfiles().then(setProfiles), []);
  if (!profiles) return null;
  const store = async (next: EndpointProfiles, saved?: EndpointSettings): Promise<string> => {
    const permission = saved ? requestHost(saved) : Promise.resolve('');
    await saveEndpointProfiles(next);
    setProfiles(next);
    return `Saved.${await permission}`;
  };
  const test = async (settings: EndpointSettings) => {
    await requestHost(settings);
    return testConnection(settings);
  };
  const list = async (settings: EndpointSettings) => {
    await requestHost(settings);
    const result = await listModels(settings);
    return result.ok ? { models: result.models } : { problem: result.message };
  };
  return <EndpointProfilesForm profiles={profiles} onStore={store} onTest={test} onListModels={list} newId={() => crypto.randomUUID()} />;
}

createRoot(document.getElementById('root')!).render(<OptionsApp />);
