import type { Frame, Page } from 'puppeteer-core';

/** What the tools answer (lib/protocol/tool-output.ts), as far as these tests read it. */
export interface ToolOutput {
  ok: boolean;
  targetId?: string;
  error?: string;
  applied?: Record<string, unknown>;
  clamped?: { param: string; requested: unknown; applied: unknown }[];
  values?: Record<string, unknown>;
  targets?: { id: string; title: string; description: string; active: boolean }[];
  parameters?: Record<string, Record<string, Record<string, unknown>>>;
}

interface ChromeGlobal {
  chrome: {
    runtime: {
      sendMessage(message: unknown): Promise<{ ok: boolean; result?: { output: ToolOutput }; error?: string }>;
    };
  };
}

interface BridgeWindow {
  SplitbrainBridge: {
    isReady(): boolean;
    currentState(): Record<string, unknown> | null;
    debug: { applyCount: number };
  };
}

/** Runs a tool the way the toolbar does (`tool/manual`: same tools and validation as the model's calls, no chat). */
export async function manualTool(page: Page, toolName: string, input: unknown): Promise<ToolOutput> {
  const response = await page.evaluate(
    (name, args) =>
      (globalThis as unknown as ChromeGlobal).chrome.runtime.sendMessage({
        type: 'tool/manual',
        toolName: name,
        input: args,
      }),
    toolName,
    input as never,
  );
  if (!response.ok || !response.result)
    throw new Error(`The runtime refused tool/manual ${toolName}: ${response.error}`);
  return response.result.output;
}

export interface InsideTarget {
  state: Record<string, unknown>;
  applyCount: number;
}

/** The values in effect and the number of applies, read inside the target's frame. */
export async function readInsideTarget(frame: Frame): Promise<InsideTarget> {
  return frame.evaluate(() => {
    const bridge = (window as unknown as BridgeWindow).SplitbrainBridge;
    return { state: bridge.currentState() ?? {}, applyCount: bridge.debug.applyCount };
  });
}

export async function waitUntilReady(frame: Frame): Promise<void> {
  await frame.waitForFunction(() => (window as unknown as BridgeWindow).SplitbrainBridge.isReady(), {
    polling: 100,
    timeout: 20_000,
  });
}
