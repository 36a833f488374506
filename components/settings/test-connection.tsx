import { useState } from 'react';
import type { ConnectionReport } from '@/lib/providers/test-connection';
import { Spinner } from '../shared/icons';
import { errorText } from '@/lib/protocol/error-text';

export interface TestConnectionProps {
  /** Undefined when the form does not validate; `problem` then says why. */
  run(): Promise<ConnectionReport | { problem: string }>;
}

/** "Test connection": lists the models where the API can and asks for a one-word reply, then shows what worked or the exact failure. */
export function TestConnection({ run }: TestConnectionProps) {
  const [running, setRunning] = useState(false);
  const [result, setResult] = useState<ConnectionReport | { problem: string }>();
  const test = async () => {
    setRunning(true);
    setResult(undefined);
    try {
      setResult(await run());
    } catch (error) {
      setResult({ problem: errorText(error) });
    } finally {
      setRunning(false);
    }
  };
  return (
    <div className="connection-test">
      <button type="button" className="button-secondary" onClick={() => void test()} disabled={running}>
        {running && <Spinner />}
        Test connection
      </button>
      <div role="status" aria-live="polite" className="connection-report">
        {running && <p className="hint">Testing…</p>}
        {result && 'problem' in result && (
          <p className="connection-check" data-ok="false">
            {result.problem}
          </p>
        )}
        {result && 'checks' in result && (
          <ul aria-label="Connection test results">
            {result.checks.map((check) => (
              <li key={check.name} className="connection-check" data-ok={String(check.ok)}>
                <strong>
                  {check.ok ? '✓' : '✗'} {check.name === 'models' ? 'Model list' : 'Reply'}:
                </strong>{' '}
                {check.detail}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
