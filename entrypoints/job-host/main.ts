import '@/entrypoints/shared/zod-setup';
import browser from 'webextension-polyfill';
import { JobHostBook } from '@/lib/jobs/job-host-book';
import { SandboxStartQueue } from '@/lib/jobs/sandbox-start-queue';
import {
  JOB_SANDBOX_SOURCE,
  jobHostCommandSchema,
  jobHostReportSchema,
  type JobHostCommand,
  type JobHostReport,
} from '@/lib/protocol/job-host-wire';
import { openReconnectingPort } from '@/lib/protocol/reconnecting-port';

// The job host: an offscreen document in Chrome, a frame of the background page in Firefox. It outlives the
// panel and a restarted service worker, and keeps the outcomes the runtime has not acknowledged yet.
const book = new JobHostBook();
const frame = document.createElement('iframe');
frame.sandbox.add('allow-scripts');
frame.src = browser.runtime.getURL('/job-sandbox.html');
const toFrame = new SandboxStartQueue({
  send: (command) => frame.contentWindow?.postMessage({ source: JOB_SANDBOX_SOURCE, command }, '*'),
  report: (outcome) => reportToRuntime({ type: 'job-host/finished', outcome }),
  setTimer: (run, delayMs) => void setTimeout(run, delayMs),
  readyTimeoutMs: 10_000,
});

function reportToRuntime(report: JobHostReport): void {
  book.observe(report);
  port.post(report);
}

const port = openReconnectingPort<JobHostReport, JobHostCommand>({
  name: 'jobs',
  connect: (name) => browser.runtime.connect({ name }),
  schema: jobHostCommandSchema,
  onMessage: (command) => {
    if (command.type === 'job-host/acknowledge') return book.acknowledge(command.jobId);
    if (command.type === 'job-host/start') book.starting(command.spec.sessionId, command.spec.jobId);
    toFrame.command(command);
  },
  onReconnect: () => port.post(book.hello()),
});
port.post(book.hello());

window.addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow) return;
  const data = event.data as { source?: unknown; ready?: unknown; report?: unknown } | null;
  if (data?.source !== JOB_SANDBOX_SOURCE) return;
  if (data.ready === true) return toFrame.frameReady();
  const parsed = jobHostReportSchema.safeParse(data.report);
  if (!parsed.success || parsed.data.type === 'job-host/hello') return;
  reportToRuntime(parsed.data);
});
document.body.append(frame);
