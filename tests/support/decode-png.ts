import { unzlibSync } from 'fflate';

export interface DecodedPng {
  width: number;
  height: number;
  /** RGBA of one pixel. */
  pixel(x: number, y: number): [number, number, number, number];
}

function paeth(left: number, up: number, upLeft: number): number {
  const estimate = left + up - upLeft;
  const [a, b, c] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
  return a <= b && a <= c ? left : b <= c ? up : upLeft;
}

/** Decodes the 8-bit RGB/RGBA, non-interlaced PNGs Chromium's captureVisibleTab makes (enough for tests). */
export function decodePng(bytes: Uint8Array): DecodedPng {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  const [depth, colorType, , , interlace] = bytes.slice(24, 29);
  if (depth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0)
    throw new Error(`Unsupported PNG: depth ${depth}, colour type ${colorType}, interlace ${interlace}`);
  const channels = colorType === 6 ? 4 : 3;
  const parts: Uint8Array[] = [];
  for (let offset = 8; offset < bytes.length;) {
    const length = view.getUint32(offset);
    const type = String.fromCharCode(...bytes.slice(offset + 4, offset + 8));
    if (type === 'IDAT') parts.push(bytes.slice(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  parts.reduce((at, part) => (joined.set(part, at), at + part.length), 0);
  const raw = unzlibSync(joined);
  const stride = width * channels;
  const pixels = new Uint8Array(height * stride);
  for (let row = 0; row < height; row++) {
    const filter = raw[row * (stride + 1)];
    for (let column = 0; column < stride; column++) {
      const value = raw[row * (stride + 1) + 1 + column];
      const left = column >= channels ? pixels[row * stride + column - channels] : 0;
      const up = row > 0 ? pixels[(row - 1) * stride + column] : 0;
      const upLeft = row > 0 && column >= channels ? pixels[(row - 1) * stride + column - channels] : 0;
      const predicted = [0, left, up, (left + up) >> 1, paeth(left, up, upLeft)][filter] ?? 0;
      pixels[row * stride + column] = (value + predicted) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel: (x, y) => {
      const at = y * stride + x * channels;
      return [pixels[at], pixels[at + 1], pixels[at + 2], channels === 4 ? pixels[at + 3] : 255];
    },
  };
}
