/** Within this many pixels of the end the list counts as "at the bottom" and follows new content. */
const STICK_THRESHOLD_PX = 48;

export function isNearBottom(
  position: { scrollTop: number; scrollHeight: number; clientHeight: number },
  threshold = STICK_THRESHOLD_PX,
): boolean {
  return position.scrollHeight - position.scrollTop - position.clientHeight <= threshold;
}
