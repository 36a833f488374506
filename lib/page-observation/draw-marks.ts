import type { ScreenshotMark } from './set-of-marks';

const COLOURS = ['#e6194b', '#3cb44b', '#4363d8', '#f58231', '#911eb4', '#008080', '#9a6324', '#800000'];

/**
 * Draws the marks on a copy of the captured PNG (never in the page): a coloured outline over each box and its number
 * on a filled tag at the box's top left. `viewportWidth` is the image's width in CSS px, which gives the scale.
 */
export async function drawMarks(png: Uint8Array, marks: ScreenshotMark[], viewportWidth: number): Promise<Uint8Array> {
  const image = await createImageBitmap(new Blob([png as BlobPart], { type: 'image/png' }));
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('No 2D canvas here.');
  context.drawImage(image, 0, 0);
  const scale = viewportWidth > 0 ? image.width / viewportWidth : 1;
  const fontSize = Math.round(12 * scale);
  context.font = `bold ${fontSize}px sans-serif`;
  context.textBaseline = 'top';
  context.lineWidth = Math.max(1, Math.round(2 * scale));
  for (const { mark, box } of marks) {
    const colour = COLOURS[(mark - 1) % COLOURS.length];
    const x = box.x * scale;
    const y = box.y * scale;
    context.strokeStyle = colour;
    context.strokeRect(x, y, box.width * scale, box.height * scale);
    const label = String(mark);
    const width = context.measureText(label).width + 4 * scale;
    const height = fontSize + 2 * scale;
    const tagY = y >= height ? y - height : y;
    context.fillStyle = colour;
    context.fillRect(x, tagY, width, height);
    context.fillStyle = '#ffffff';
    context.fillText(label, x + 2 * scale, tagY + scale);
  }
  const blob = await canvas.convertToBlob({ type: 'image/png' });
  return new Uint8Array(await blob.arrayBuffer());
}
