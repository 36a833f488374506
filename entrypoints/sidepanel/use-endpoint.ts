import { useEffect, useState } from 'react';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';
import { loadEndpoint, onEndpointChange } from '../shared/endpoint-storage';

export interface PanelEndpoint {
  settings: EndpointSettings | undefined;
  /** False until the stored endpoint has been read, so the onboarding view does not flash. */
  loaded: boolean;
}

/** The endpoint the panel talks to, kept current when the options page changes it. */
export function useEndpoint(): PanelEndpoint {
  const [endpoint, setEndpoint] = useState<PanelEndpoint>({ settings: undefined, loaded: false });
  useEffect(() => {
    void loadEndpoint().then((settings) => setEndpoint({ settings, loaded: true }));
    return onEndpointChange((settings) => setEndpoint((current) => ({ ...current, settings })));
  }, []);
  return endpoint;
}
