import type { ToolOutput } from '../protocol/tool-output';

export function pageFailure(code: string, reason: string): ToolOutput {
  return { ok: false, code, error: `${code}: ${reason}`.slice(0, 2000), reason };
}

export function denied(reason: string): ToolOutput {
  return { ok: false, code: 'DENIED', error: `DENIED: ${reason}`, reason };
}
