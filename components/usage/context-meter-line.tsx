import { contextWindowOf } from '@/lib/context/context-window';
import { compactTokens, contextMeterOf } from '@/lib/context/context-meter';
import type { EndpointSettings } from '@/lib/settings/endpoint-settings';

const sourceText = {
  profile: 'the window set in Settings',
  'known-model': "the model's known window",
  default: 'a guessed window (set it in Settings)',
} as const;

export interface ContextMeterLineProps {
  lastPrompt: { tokens: number; reported: boolean } | undefined;
  compactions: number;
  endpoint: EndpointSettings | undefined;
  /** Summarises the earlier turns now; unset while that cannot be done (a turn runs, or there is one turn). */
  onCompact?: () => void;
}

/**
 * The latest request's prompt against what a prompt may hold on this profile. Older observations and results are
 * sent as stubs and earlier turns as a summary once the prompt nears the limit; the log keeps everything.
 */
export function ContextMeterLine({ lastPrompt, compactions, endpoint, onCompact }: ContextMeterLineProps) {
  if (!endpoint) return null;
  const window = contextWindowOf(endpoint);
  const meter = contextMeterOf(lastPrompt, compactions, window);
  if (!meter) return null;
  const percent = Math.round(meter.share * 100);
  const compacted = meter.compactions === 0 ? '' : ` · ${meter.compactions} compacted`;
  const label = `Context: the last request's prompt was ${meter.usedTokens.toLocaleString('en-US')} tokens (${meter.reported ? 'as the provider counted it' : 'estimated'}) of the ${meter.limitTokens.toLocaleString('en-US')} a prompt may hold, from ${sourceText[meter.source]} of ${meter.windowTokens.toLocaleString('en-US')} less the answer's reserve${meter.compactions ? `; earlier turns were summarised ${meter.compactions} time${meter.compactions === 1 ? '' : 's'}` : ''}. Older page observations and large results are sent as short stubs; the log keeps everything.`;
  return (
    <span
      className="context-meter"
      title={label}
      aria-label={label}
      data-used-tokens={meter.usedTokens}
      data-limit-tokens={meter.limitTokens}
      data-compactions={meter.compactions}
      data-level={meter.share >= 0.8 ? 'high' : meter.share >= 0.5 ? 'mid' : 'low'}
    >
      <meter
        min={0}
        max={meter.limitTokens}
        low={meter.limitTokens * 0.5}
        high={meter.limitTokens * 0.8}
        value={meter.usedTokens}
      />
      {compactTokens(meter.usedTokens)}/{compactTokens(meter.limitTokens)} ({percent}%){compacted}
      {onCompact && (
        <button
          type="button"
          className="link-button context-compact"
          onClick={onCompact}
          title="Summarise every turn before the last one now: the next requests start from the summary, and the log keeps everything."
        >
          Compact
        </button>
      )}
    </span>
  );
}
