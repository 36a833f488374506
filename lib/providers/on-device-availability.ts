/**
 * What the browser says of its on-device model (Chrome's Prompt API, `LanguageModel.availability()`), plus
 * `absent` when there is no such API at all (Firefox, other browsers, Chrome builds without it).
 */
export const onDeviceAvailabilities = ['absent', 'unavailable', 'downloadable', 'downloading', 'available'] as const;
export type OnDeviceAvailability = (typeof onDeviceAvailabilities)[number];

export interface OnDeviceStatus {
  readonly availability: OnDeviceAvailability;
  /** 0 to 1 while a download runs. */
  readonly progress?: number;
}

export function isOnDeviceAvailability(value: unknown): value is OnDeviceAvailability {
  return typeof value === 'string' && (onDeviceAvailabilities as readonly string[]).includes(value);
}

/** The kind is offered only where the browser reports a model it has or can download. */
export function isOnDeviceOffered(status: OnDeviceStatus): boolean {
  return status.availability !== 'absent' && status.availability !== 'unavailable';
}

export const ON_DEVICE_PRIVACY =
  'The model runs inside Chrome on this device: nothing of the conversation leaves the machine, and there is no key.';

/** One line for the options page. */
export function onDeviceStatusText(status: OnDeviceStatus): string {
  switch (status.availability) {
    case 'absent':
      return "Not available in this browser: it has no on-device model (Chrome's Prompt API, LanguageModel). It needs a recent desktop Chrome; Firefox has none.";
    case 'unavailable':
      return 'Not available on this device: Chrome reports that it cannot run its on-device model here (hardware, free disk space, or a policy).';
    case 'downloadable':
      return 'Not downloaded yet: Chrome downloads the model once (several GB) when it is first used, or now with Download the model.';
    case 'downloading':
      return `Chrome is downloading the model${status.progress === undefined ? '' : `: ${Math.round(status.progress * 100)} %`}. It can be used once the download is done.`;
    case 'available':
      return 'Ready: the model is on this device.';
  }
}
