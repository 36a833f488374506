import { describe, expect, it, vi } from 'vitest';
import { ENDPOINT_PROFILES_STORAGE_KEY } from '../settings/endpoint-profiles';
import { ENDPOINT_STORAGE_KEY } from '../settings/endpoint-settings';
import type { KeyValueStore } from '../storage/key-value-store';
import { activeEndpointImageRefusal } from './active-endpoint-image-refusal';

const endpoint = {
  kind: 'openai-compatible',
  label: 'Local',
  baseUrl: 'http://127.0.0.1:1/v1',
  model: 'vision-model',
  apiKey: '',
};

function storage(values: Record<string, unknown>): KeyValueStore {
  return {
    get: async (key) => values[key],
    set: vi.fn(async () => undefined),
    onChange: () => undefined,
  };
}

describe('activeEndpointImageRefusal', () => {
  it('finds the active profile, or the endpoint of the old key, and writes nothing back', async () => {
    const profiles = storage({
      [ENDPOINT_PROFILES_STORAGE_KEY]: { activeId: 'p1', profiles: [{ ...endpoint, id: 'p1' }] },
    });
    expect(await activeEndpointImageRefusal(profiles)).toBeUndefined();
    const legacy = storage({ [ENDPOINT_STORAGE_KEY]: endpoint });
    expect(await activeEndpointImageRefusal(legacy)).toBeUndefined();
    expect(legacy.set).not.toHaveBeenCalled();
  });

  it('refuses nothing while no endpoint is set up: the panel asks for one before any turn', async () => {
    expect(await activeEndpointImageRefusal(storage({}))).toBeUndefined();
  });
});
