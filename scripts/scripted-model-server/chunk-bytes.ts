import { mulberry32 } from './mulberry32';

export interface ChunkBytesOptions {
  /** Seed for the piece sizes; defaults to 1. */
  readonly seed?: number;
  /** Used instead of a fresh generator from `seed`, so consecutive calls continue one sequence. */
  readonly random?: () => number;
  readonly minPieceBytes?: number;
  readonly maxPieceBytes?: number;
}

/**
 * Cuts bytes into random pieces of minPieceBytes..maxPieceBytes (default 1..5),
 * ignoring character boundaries so that multi-byte UTF-8 characters get split.
 */
export function chunkBytes(bytes: Uint8Array, options: ChunkBytesOptions = {}): Buffer[] {
  const minPieceBytes = options.minPieceBytes ?? 1;
  const maxPieceBytes = options.maxPieceBytes ?? 5;
  if (
    !Number.isInteger(minPieceBytes) ||
    !Number.isInteger(maxPieceBytes) ||
    minPieceBytes < 1 ||
    maxPieceBytes < minPieceBytes
  ) {
    throw new RangeError(`Invalid piece sizes: min ${minPieceBytes}, max ${maxPieceBytes}`);
  }
  const random = options.random ?? mulberry32(options.seed ?? 1);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const pieces: Buffer[] = [];
  let offset = 0;
  while (offset < buffer.length) {
    const size = minPieceBytes + Math.floor(random() * (maxPieceBytes - minPieceBytes + 1));
    pieces.push(buffer.subarray(offset, offset + size));
    offset += size;
  }
  return pieces;
}
