import { JOB_LIMITS } from './job-limits';
import type { OutputSummary } from '../protocol/job-events';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: false });

export interface LiveOutput {
  offset: number;
  text: string;
  totalBytes: number;
}

export interface OutputWindowLimits {
  headBytes: number;
  tailBytes: number;
  liveChunkBytes: number;
}

/**
 * A job's output as bytes: the first `headBytes`, the last `tailBytes`, and the count of all of them. Nothing
 * else is kept however much is printed, and every byte not kept is counted as dropped.
 */
export class OutputWindow {
  private head: Uint8Array = new Uint8Array(0);
  private tail: Uint8Array[] = [];
  private tailLength = 0;
  private total = 0;
  private live: Uint8Array[] = [];
  private liveLength = 0;
  private liveStart = 0;

  constructor(private readonly limits: OutputWindowLimits = JOB_LIMITS) {}

  get totalBytes(): number {
    return this.total;
  }

  append(text: string): void {
    if (text === '') return;
    let bytes = encoder.encode(text);
    if (this.total === 0 && this.live.length === 0) this.liveStart = 0;
    this.total += bytes.length;
    this.keepLive(bytes);
    if (this.head.length < this.limits.headBytes) {
      const room = this.limits.headBytes - this.head.length;
      const taken = bytes.subarray(0, room);
      this.head = concat([this.head, taken], this.head.length + taken.length);
      bytes = bytes.subarray(taken.length);
    }
    if (bytes.length === 0) return;
    this.tail.push(bytes);
    this.tailLength += bytes.length;
    this.trimTail();
  }

  /** The bytes printed since the last call, at most `liveChunkBytes` of the newest of them. */
  takeLive(): LiveOutput | undefined {
    if (this.liveLength === 0) return undefined;
    const bytes = concat(this.live, this.liveLength);
    const offset = this.liveStart;
    this.live = [];
    this.liveLength = 0;
    this.liveStart = this.total;
    return { offset, text: decoder.decode(bytes), totalBytes: this.total };
  }

  summary(): OutputSummary {
    const headBytes = this.head.length;
    const tailBytes = this.tailLength;
    return {
      totalBytes: this.total,
      head: { text: decoder.decode(this.head), from: 0, to: headBytes },
      tail: { text: decoder.decode(concat(this.tail, tailBytes)), from: this.total - tailBytes, to: this.total },
      droppedBytes: this.total - headBytes - tailBytes,
    };
  }

  private keepLive(bytes: Uint8Array): void {
    this.live.push(bytes);
    this.liveLength += bytes.length;
    while (this.liveLength - this.live[0].length >= this.limits.liveChunkBytes) {
      const dropped = this.live.shift() as Uint8Array;
      this.liveLength -= dropped.length;
      this.liveStart += dropped.length;
    }
    if (this.liveLength > this.limits.liveChunkBytes) {
      const cut = this.liveLength - this.limits.liveChunkBytes;
      this.live[0] = this.live[0].subarray(cut);
      this.liveLength -= cut;
      this.liveStart += cut;
    }
  }

  private trimTail(): void {
    while (this.tailLength - this.tail[0].length >= this.limits.tailBytes) {
      const dropped = this.tail.shift() as Uint8Array;
      this.tailLength -= dropped.length;
    }
    if (this.tailLength > this.limits.tailBytes) {
      const cut = this.tailLength - this.limits.tailBytes;
      this.tail[0] = this.tail[0].subarray(cut);
      this.tailLength -= cut;
    }
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0];
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

/** A text excerpt for the model: the head, a line saying how many bytes were cut, the tail. */
export function describeOutput(summary: OutputSummary): string {
  if (summary.totalBytes === 0) return '';
  if (summary.droppedBytes === 0) return summary.head.text + summary.tail.text;
  return `${summary.head.text}\n[… ${summary.droppedBytes} bytes cut: bytes ${summary.head.to} to ${summary.tail.from} of ${summary.totalBytes} …]\n${summary.tail.text}`;
}

/** The summary of a job that printed nothing (or whose output was lost with its host). */
export const EMPTY_OUTPUT: OutputSummary = {
  totalBytes: 0,
  head: { text: '', from: 0, to: 0 },
  tail: { text: '', from: 0, to: 0 },
  droppedBytes: 0,
};
