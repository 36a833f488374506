import type { ServerResponse } from 'node:http';
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { chunkBytes } from './chunk-bytes';

export interface WriteFramesInPiecesOptions {
  readonly random: () => number;
  readonly minPieceBytes: number;
  readonly maxPieceBytes: number;
  /** Pause before the first byte of every frame. */
  readonly delayMs?: number;
  /** Aborts a pending pause, e.g. when the client disconnects. */
  readonly signal?: AbortSignal;
}

/**
 * Writes the frames as one byte string cut into small random pieces (a piece may
 * straddle two frames, like TCP would), each written on its own and followed by
 * a turn of the event loop so the client really receives them separately.
 * Returns false if the client went away before everything was written.
 */
export async function writeFramesInPieces(
  response: ServerResponse,
  frames: readonly string[],
  options: WriteFramesInPiecesOptions,
): Promise<boolean> {
  const frameBuffers = frames.map((frame) => Buffer.from(frame, 'utf8'));
  const frameEnds: number[] = [];
  let total = 0;
  for (const frameBuffer of frameBuffers) {
    total += frameBuffer.length;
    frameEnds.push(total);
  }
  const pieces = chunkBytes(Buffer.concat(frameBuffers), options);
  const delayMs = options.delayMs ?? 0;

  let offset = 0;
  let frameIndex = -1;
  for (const piece of pieces) {
    let pieceFrameIndex = Math.max(frameIndex, 0);
    while (offset >= (frameEnds[pieceFrameIndex] ?? Number.POSITIVE_INFINITY)) pieceFrameIndex += 1;
    if (pieceFrameIndex !== frameIndex && delayMs > 0) {
      const slept = await sleep(delayMs, true, options.signal === undefined ? {} : { signal: options.signal }).catch(
        () => false,
      );
      if (!slept) return false;
    }
    frameIndex = pieceFrameIndex;

    if (response.destroyed || response.writableEnded) return false;
    response.write(piece);
    offset += piece.length;
    await yieldToEventLoop();
  }
  return !response.destroyed;
}
