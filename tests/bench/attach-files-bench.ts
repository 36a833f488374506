/**
 * `npm run bench -- attach`: five 5 MB images from drop to `ready` through `attachFile` (read, sniff, header
 * checks, sha256, the Dexie blob store on this page's IndexedDB; the runtime's event appends are stubbed), and
 * sha256 throughput of the hashing path (`sha256Hex`) beside a bare `crypto.subtle.digest` over the same bytes
 * in the same run. Prints `BENCH {json}`.
 */
import { attachFile } from '../../lib/files/attach-file';
import { sha256Hex } from '../../lib/files/sha256-hex';
import { DexieBlobStore } from '../../lib/storage/dexie-blob-store';
import { openSplitbrainDatabase } from '../../lib/storage/dexie-event-store';

const IMAGES = 5;
const EDGE = 1290;

async function noisePng(): Promise<Uint8Array> {
  const canvas = new OffscreenCanvas(EDGE, EDGE);
  const context = canvas.getContext('2d')!;
  const pixels = context.createImageData(EDGE, EDGE);
  // Random pixels do not compress: the PNG is about as large as its pixels (5 MB at this edge).
  for (let offset = 0; offset < pixels.data.length; offset += 65_536)
    crypto.getRandomValues(pixels.data.subarray(offset, offset + 65_536));
  for (let index = 3; index < pixels.data.length; index += 4) pixels.data[index] = 255;
  context.putImageData(pixels, 0, 0);
  return new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
}

async function main(): Promise<void> {
  const images = await Promise.all(Array.from({ length: IMAGES }, () => noisePng()));
  const database = openSplitbrainDatabase(`bench-${Date.now()}`);
  const store = new DexieBlobStore(database);
  let next = 0;
  const started = performance.now();
  const perImage: number[] = [];
  for (const [index, bytes] of images.entries()) {
    const dropped = performance.now();
    const outcome = await attachFile(
      { name: `noise-${index}.png`, size: bytes.byteLength, type: 'image/png', bytes: async () => bytes },
      {
        sessionId: 'bench',
        store,
        record: async () => undefined,
        isCancelled: () => false,
        newId: () => `id-${next++}`,
        now: () => Date.now(),
      },
    );
    if (outcome.state !== 'ready') throw new Error(`image ${index} ended ${outcome.state}`);
    perImage.push(performance.now() - dropped);
  }
  const dropToReadyMs = performance.now() - started;

  const all = new Uint8Array(images.reduce((total, bytes) => total + bytes.byteLength, 0));
  let offset = 0;
  for (const bytes of images) {
    all.set(bytes, offset);
    offset += bytes.byteLength;
  }
  const megabytes = all.byteLength / (1024 * 1024);
  const time = async (run: () => Promise<unknown>) => {
    const runs: number[] = [];
    for (let round = 0; round < 5; round++) {
      const begun = performance.now();
      await run();
      runs.push(performance.now() - begun);
    }
    return runs.sort((left, right) => left - right)[2];
  };
  const pathMs = await time(() => sha256Hex(all));
  const bareMs = await time(() => crypto.subtle.digest('SHA-256', all));
  console.log(
    `BENCH ${JSON.stringify({
      name: 'attach files',
      images: IMAGES,
      imageMegabytes: Number((images[0].byteLength / (1024 * 1024)).toFixed(2)),
      dropToReadyMsAllFive: Math.round(dropToReadyMs),
      dropToReadyMsEach: perImage.map((value) => Math.round(value)),
      hashedMegabytes: Number(megabytes.toFixed(1)),
      sha256PathMBps: Math.round(megabytes / (pathMs / 1000)),
      sha256BareMBps: Math.round(megabytes / (bareMs / 1000)),
    })}`,
  );
  database.close();
}

void main();
