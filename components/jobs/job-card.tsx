import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useLayoutEffect, useRef } from 'react';
import { isJobActive, jobEndSummary, jobOutputView, JOB_STATE_LABEL } from '@/lib/panel/job-card-view';
import { isNearBottom } from '@/lib/panel/scroll-position';
import type { JobView } from '@/lib/state/job-view';
import { usePanelActions } from '../shared/panel-actions';
import { useRuntimeAction } from '../shared/use-runtime-action';

const LINE_HEIGHT = 18;

/** A job: its state, its output in a virtualized view that follows only when scrolled to the bottom, and Stop. */
export const JobCard = memo(function JobCard({ job }: { job: JobView }) {
  const { stopJob } = usePanelActions();
  const action = useRuntimeAction();
  const output = jobOutputView(job);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stuck = useRef(true);
  const virtualizer = useVirtualizer({
    count: output.lines.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => LINE_HEIGHT,
    overscan: 10,
  });
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (element && stuck.current) element.scrollTop = element.scrollHeight;
  }, [output.lines.length]);
  const end = jobEndSummary(job);
  return (
    <section
      className={`job-card job-${job.state}`}
      aria-label={`Job ${job.jobId}`}
      data-job-id={job.jobId}
      data-state={job.state}
    >
      <header className="job-head">
        <span className="job-title">{job.background ? 'Background job' : 'Job'}</span>
        <span className="job-state" data-job-state={job.state}>
          {JOB_STATE_LABEL[job.state]}
        </span>
        {isJobActive(job) && (
          <button
            type="button"
            className="button-secondary job-stop"
            disabled={action.sending || job.state === 'stopping'}
            onClick={() => action.run(() => stopJob(job))}
          >
            Stop
          </button>
        )}
      </header>
      {output.lines.length > 0 && (
        <div
          className="job-output"
          ref={scrollRef}
          onScroll={(event) => (stuck.current = isNearBottom(event.currentTarget))}
          role="log"
          aria-label="Job output"
        >
          <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {virtualizer.getVirtualItems().map((row) => (
              <div
                key={row.key}
                className="job-line"
                style={{ position: 'absolute', top: 0, transform: `translateY(${row.start}px)`, height: LINE_HEIGHT }}
              >
                {output.lines[row.index]}
              </div>
            ))}
          </div>
        </div>
      )}
      <p className="job-range" data-dropped-bytes={output.droppedBytes}>
        {output.range}
      </p>
      {end && <p className="job-end">{end}</p>}
      {action.error && <p className="job-error">{action.error}</p>}
    </section>
  );
});
