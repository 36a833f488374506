/**
 * The frames as they would arrive if the stream stopped after `byte` bytes: whole frames, then the start of
 * the one the cut falls in. A cut inside a multi-byte character moves back to that character's start.
 */
export function framesUpToByte(frames: readonly string[], byte: number): string[] {
  const kept: string[] = [];
  let remaining = byte;
  for (const frame of frames) {
    const bytes = Buffer.from(frame, 'utf8');
    if (bytes.length <= remaining) {
      kept.push(frame);
      remaining -= bytes.length;
      continue;
    }
    let end = remaining;
    while (end > 0 && (bytes[end] & 0xc0) === 0x80) end -= 1;
    if (end > 0) kept.push(bytes.subarray(0, end).toString('utf8'));
    break;
  }
  return kept;
}
