import type { StageReportMessage } from '../protocol/runtime-message';

export type CspViolationReport = Extract<StageReportMessage, { type: 'stage/target-csp-violation' }>;

/** Violations reported per opened target: a frame that retries a blocked request in a loop must not flood the runtime. */
const MAX_VIOLATIONS = 50;

/** The content security policy violations of one opened target, reported to the runtime up to a limit. */
export class CspViolationReports {
  private count = 0;

  constructor(
    private readonly targetId: string,
    private readonly send: (message: CspViolationReport) => void,
  ) {}

  report(directive: string, blockedUrl: string): void {
    if (this.count >= MAX_VIOLATIONS) return;
    this.count += 1;
    this.send({ type: 'stage/target-csp-violation', targetId: this.targetId, directive, blockedUrl });
  }
}
