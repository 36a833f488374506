import { useEffect, useState } from 'react';
import { secondsUntil } from '@/lib/panel/relative-time';
import { Spinner } from '../shared/icons';

/** The model connection failed and the loop waits before trying again: a live countdown. */
export function RetryNotice({ retry }: { retry: { until: number; delayMs: number; reason: string } }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [retry.until]);
  const seconds = secondsUntil(retry.until, now);
  return (
    <div className="retry-notice" role="status">
      <Spinner />
      <span>
        <strong>{seconds > 0 ? `Retrying in ${seconds} s` : 'Retrying now…'}</strong> — {retry.reason}
      </span>
    </div>
  );
}
