/** The parts of the stage page the stage writes to. */
export interface StageElements {
  frameHost: HTMLElement;
  titleLabel: HTMLElement;
  statusLabel: HTMLElement;
  grantsLabel: HTMLElement;
  appLog: HTMLDetailsElement;
  fullscreenExit: HTMLButtonElement;
}

export function stageElements(): StageElements {
  return {
    frameHost: document.getElementById('frame-host')!,
    titleLabel: document.getElementById('target-title')!,
    statusLabel: document.getElementById('target-status')!,
    grantsLabel: document.getElementById('target-grants')!,
    appLog: document.getElementById('app-log') as HTMLDetailsElement,
    fullscreenExit: document.getElementById('fullscreen-exit') as HTMLButtonElement,
  };
}
