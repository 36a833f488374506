import type { JsonObject } from '@/lib/protocol/json-value';
import type { McpAppDisplayMode } from '@/lib/protocol/mcp-app-wire';
import type { McpAppBridge } from '@/lib/stage/mcp-app-bridge';
import { inlineFrameHeight, mcpAppContainerDimensions } from '@/lib/stage/mcp-app-frame-size';
import type { StageElements } from './stage-elements';

/** The app the stage shows now: its frame and its protocol. */
export interface DisplayedApp {
  frame: HTMLIFrameElement;
  bridge: McpAppBridge;
}

/** The current app's display mode, and the height it last asked for (kept for its return to inline). */
export class McpAppDisplay {
  private mode: McpAppDisplayMode = 'inline';
  private inlineHeight = '';

  constructor(
    private readonly elements: StageElements,
    private readonly currentApp: () => DisplayedApp | undefined,
  ) {}

  containerDimensions(): JsonObject {
    const { frameHost } = this.elements;
    return mcpAppContainerDimensions(this.mode, { width: frameHost.clientWidth, height: frameHost.clientHeight });
  }

  /**
   * Shows the current app inline (under the stage's bar, as tall as it asks) or in full screen (the stage tab is
   * the app's whole window, with only the host's way back and the app's name over it), and tells it so.
   */
  showIn(mode: McpAppDisplayMode): void {
    const current = this.currentApp();
    if (!current) return;
    const { fullscreenExit, titleLabel } = this.elements;
    this.mode = mode;
    document.body.classList.toggle('app-fullscreen', mode === 'fullscreen');
    fullscreenExit.hidden = mode !== 'fullscreen';
    fullscreenExit.textContent = `Exit full screen · ${titleLabel.textContent ?? ''}`;
    current.frame.style.height = mode === 'fullscreen' ? '' : this.inlineHeight;
    document.documentElement.dataset.appDisplayMode = mode;
    current.bridge.updateHostContext({ displayMode: mode, containerDimensions: this.containerDimensions() });
  }

  /** The app's content is `height` tall: its frame is, inline. */
  fit(frame: HTMLIFrameElement, height: number): void {
    this.inlineHeight = inlineFrameHeight(height);
    if (this.mode === 'inline') frame.style.height = this.inlineHeight;
  }

  reset(): void {
    this.mode = 'inline';
    this.inlineHeight = '';
    document.body.classList.remove('app-fullscreen');
    this.elements.fullscreenExit.hidden = true;
    delete document.documentElement.dataset.appDisplayMode;
  }
}
