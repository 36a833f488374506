import '@/entrypoints/shared/zod-setup';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { SandboxRunner, type ScriptWorker } from '@/lib/jobs/sandbox-runner';
import { JOB_SANDBOX_SOURCE, jobHostCommandSchema, type JobHostReport } from '@/lib/protocol/job-host-wire';

// Runs in an opaque origin with a CSP that allows no network: only the host page above may command it. Built as a
// classic script (the page scripts/job-sandbox-page.ts writes loads it): Firefox loads no module script into an opaque-origin frame.
function spawn(source: string): ScriptWorker {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  const worker = new Worker(url);
  URL.revokeObjectURL(url);
  return {
    terminate: () => worker.terminate(),
    // The first message hands over the port every later one comes by (lib/jobs/worker-source.ts says why).
    onMessage: (listener) =>
      worker.addEventListener('message', (event) => {
        const port = event.ports[0];
        if (port) {
          port.onmessage = (portEvent) => listener(portEvent.data);
          port.postMessage({ kind: 'ready' });
        }
        listener(event.data);
      }),
    onError: (listener) =>
      worker.addEventListener('error', (event) => {
        event.preventDefault();
        // Firefox fires a bare `error` event with no message for a source it does not parse.
        listener({ message: event.message || 'The script does not parse.' });
      }),
  };
}

export default defineUnlistedScript(() => {
  const send = (report: JobHostReport) => window.parent.postMessage({ source: JOB_SANDBOX_SOURCE, report }, '*');

  const runner = new SandboxRunner({
    spawn,
    send,
    now: () => performance.now(),
    setTimer: (run, delayMs) => setTimeout(run, delayMs),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  });

  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    const data = event.data as { source?: unknown; command?: unknown } | null;
    if (data?.source !== JOB_SANDBOX_SOURCE) return;
    const parsed = jobHostCommandSchema.safeParse(data.command);
    if (!parsed.success) return;
    if (parsed.data.type === 'job-host/start') runner.start(parsed.data.spec);
    if (parsed.data.type === 'job-host/kill') runner.kill(parsed.data.jobId);
  });

  window.parent.postMessage({ source: JOB_SANDBOX_SOURCE, ready: true }, '*');
});
