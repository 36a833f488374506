import '@/entrypoints/shared/zod-setup';
import './profiles.css';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import browser from 'webextension-polyfill';
import { ApprovalPolicyForm } from '@/components/settings/approval-policy-form';
import { SiteAccessList } from '@/components/settings/site-access-list';
import { useSiteAccess } from './site-access';
import { McpServersForm } from '@/components/settings/mcp-servers-form';
import { McpAppGrantList } from '@/components/settings/mcp-app-grant-list';
import { useMcpServers } from './mcp-servers';
import { useMcpAppGrants } from './mcp-app-grants';
import { EndpointProfilesForm } from '@/components/settings/endpoint-profiles-form';
import { UsageSettingsForm } from '@/components/settings/usage-settings-form';
import type { UsageSettings } from '@/lib/usage/usage-settings';
import { UsageSettingsStore } from '@/lib/usage/usage-settings-store';
import { ApprovalPolicyStore } from '@/lib/settings/approval-policy-store';
import type { ApprovalPolicy } from '@/lib/tool-family/approval-policy';
import { listModels } from '@/lib/providers/list-models';
import { isLoopbackUrl } from '@/lib/providers/loopback-url';
import { testConnection } from '@/lib/providers/test-connection';
import type { EndpointProfiles } from '@/lib/settings/endpoint-profiles';
import { isRemoteEndpoint, type EndpointSettings } from '@/lib/settings/endpoint-settings';
import { loadEndpointProfiles, saveEndpointProfiles } from '../shared/endpoint-storage';
import { extensionKeyValueStore } from '../shared/extension-key-value-store';
import { downloadOnDeviceModel, probeOnDeviceModel } from './on-device-model';
import type { OnDeviceStatus } from '@/lib/providers/on-device-availability';

const approvalPolicies = new ApprovalPolicyStore(extensionKeyValueStore);
const usageSettingsStore = new UsageSettingsStore(extensionKeyValueStore);

/** `notifications` is an optional permission: asked for in the click that turns the switch on, before any await. */
function requestNotifications(settings: UsageSettings): Promise<UsageSettings> {
  if (!settings.browserNotifications) return Promise.resolve(settings);
  return browser.permissions
    .request({ permissions: ['notifications'] })
    .catch(() => false)
    .then((granted) => (granted ? settings : { ...settings, browserNotifications: false }));
}

/**
 * Asks for the host at the moment the user saves or tests (not at install); servers on this machine need
 * none. Called before any await so the click still counts as the user's gesture.
 */
function requestHost(settings: EndpointSettings): Promise<string> {
  if (!isRemoteEndpoint(settings) || isLoopbackUrl(settings.baseUrl)) return Promise.resolve('');
  const origin = new URL(settings.baseUrl).origin;
  return browser.permissions
    .request({ origins: [`${origin}/*`] })
    .catch(() => false)
    .then((granted) =>
      granted
        ? ''
        : ` Access to ${origin} was not granted; requests work only if that server allows cross-origin calls.`,
    );
}

function OptionsApp() {
  const [profiles, setProfiles] = useState<EndpointProfiles>();
  const [policy, setPolicy] = useState<ApprovalPolicy>();
  const siteAccess = useSiteAccess();
  const mcp = useMcpServers();
  const appGrants = useMcpAppGrants();
  const serverNames = new Map((mcp.servers ?? []).map((server) => [server.id, server.name]));
  const [usageSettings, setUsageSettings] = useState<UsageSettings>();
  useEffect(() => void usageSettingsStore.load().then(setUsageSettings), []);
  useEffect(() => void loadEndpointProfiles().then(setProfiles), []);
  useEffect(() => void approvalPolicies.load().then(setPolicy), []);
  const [onDevice, setOnDevice] = useState<OnDeviceStatus>();
  useEffect(() => void probeOnDeviceModel().then(setOnDevice), []);
  if (!profiles || !policy || !usageSettings || !mcp.servers) return null;
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
    if (!result.ok) return { problem: result.message };
    return { models: result.models, ...(result.contextWindows ? { contextWindows: result.contextWindows } : {}) };
  };
  const savePolicy = async (next: ApprovalPolicy) => {
    await approvalPolicies.save(next);
    setPolicy(next);
    return 'Saved.';
  };
  const saveUsageSettings = async (next: UsageSettings) => {
    const allowed = await requestNotifications(next);
    await usageSettingsStore.save(allowed);
    setUsageSettings(allowed);
    return allowed.browserNotifications === next.browserNotifications
      ? 'Saved.'
      : 'Saved, without notifications: the browser did not allow them.';
  };
  return (
    <>
      <EndpointProfilesForm
        profiles={profiles}
        onStore={store}
        onTest={test}
        onListModels={list}
        newId={() => crypto.randomUUID()}
        {...(onDevice ? { onDevice } : {})}
        onDownloadOnDevice={() => void downloadOnDeviceModel(setOnDevice)}
      />
      <section className="profiles-page">
        <h2>Approvals</h2>
        <ApprovalPolicyForm initial={policy} onSave={savePolicy} />
      </section>
      <McpServersForm
        servers={mcp.servers}
        onSave={mcp.save}
        onRemove={mcp.remove}
        onTest={mcp.test}
        onSignOut={mcp.signOut}
      />
      <section className="profiles-page">
        <h2>MCP App network access</h2>
        <McpAppGrantList grants={appGrants.grants} serverNames={serverNames} onRevoke={appGrants.revoke} />
      </section>
      <section className="profiles-page">
        <h2>Sites</h2>
        <SiteAccessList sites={siteAccess.sites} onModeChange={siteAccess.setMode} onRevoke={siteAccess.revoke} />
      </section>
      <section className="profiles-page">
        <h2>Usage, budgets and notifications</h2>
        <UsageSettingsForm initial={usageSettings} onSave={saveUsageSettings} />
      </section>
    </>
  );
}

createRoot(document.getElementById('root')!).render(<OptionsApp />);
