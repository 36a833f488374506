import { BrowserAIChatLanguageModel } from '@browser-ai/core';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import { guardOnDeviceStreams } from './guard-on-device-streams';

/**
 * The Prompt API has no native tool calls: @browser-ai/core describes the tools in the system prompt and parses the
 * model's fenced JSON calls back into AI SDK tool calls. Its class, not its provider: that also pulls in MediaPipe.
 */
export function createOnDeviceLanguageModel(): LanguageModelV3 {
  guardOnDeviceStreams(globalThis as Parameters<typeof guardOnDeviceStreams>[0]);
  return new BrowserAIChatLanguageModel('text');
}
