import { isOnDeviceAvailability, type OnDeviceStatus } from '@/lib/providers/on-device-availability';

interface PromptApi {
  availability(): Promise<unknown>;
  create(options: { monitor(monitor: EventTarget): void }): Promise<{ destroy(): void }>;
}

function promptApi(): PromptApi | undefined {
  const api = (globalThis as { LanguageModel?: PromptApi }).LanguageModel;
  return api && typeof api.availability === 'function' ? api : undefined;
}

/** Asks Chrome's Prompt API whether its on-device model is here; `absent` where the API does not exist. */
export async function probeOnDeviceModel(): Promise<OnDeviceStatus> {
  const api = promptApi();
  if (!api) return { availability: 'absent' };
  const availability = await api.availability().catch(() => 'unavailable');
  return { availability: isOnDeviceAvailability(availability) ? availability : 'unavailable' };
}

/** Starts the download (the click is the user gesture Chrome asks for) and reports its progress, then the new state. */
export async function downloadOnDeviceModel(onStatus: (status: OnDeviceStatus) => void): Promise<void> {
  const api = promptApi();
  if (!api) return onStatus({ availability: 'absent' });
  onStatus({ availability: 'downloading' });
  const session = await api
    .create({
      monitor(monitor) {
        monitor.addEventListener('downloadprogress', (event) => {
          const loaded = (event as Event & { loaded?: unknown }).loaded;
          if (typeof loaded === 'number') onStatus({ availability: 'downloading', progress: loaded });
        });
      },
    })
    .catch(() => undefined);
  session?.destroy();
  onStatus(await probeOnDeviceModel());
}
