/** Other names for words of parameter names ("fov" for field of view, "key" for root note). */
export const nameSynonyms: Record<string, readonly string[]> = {
  bpm: ['tempo'],
  number: ['count'],
  sun: ['light'],
  colour: ['color'],
  fov: ['field', 'view'],
  zoom: ['field', 'view'],
  arrow: ['vector'],
  spin: ['spin'],
  rotation: ['spin'],
  rotate: ['spin'],
  delay: ['echo'],
  key: ['root', 'note'],
  typeface: ['font', 'family'],
  tracking: ['letter', 'spacing'],
  leading: ['line', 'height'],
  measure: ['max', 'width'],
  alignment: ['align'],
  wave: ['waveform'],
  camera: ['position'],
  cutoff: ['cutoff'],
  brightness: ['cutoff'],
};

/**
 * Words that say how something changes and so suggest what ("faster" a speed or a tempo). They name nothing: a
 * clause that also names another target's parameter ("slow the tempo" on the particle field) does not use them.
 */
export const changeSynonyms: Record<string, readonly string[]> = {
  faster: ['speed', 'tempo'],
  slower: ['speed', 'tempo'],
  quicker: ['speed', 'tempo'],
  fast: ['speed', 'tempo'],
  slow: ['speed', 'tempo'],
  louder: ['volume'],
  quieter: ['volume'],
  loud: ['volume'],
  quiet: ['volume'],
  fewer: ['count'],
  many: ['count'],
  bigger: ['size'],
  larger: ['size'],
  smaller: ['size'],
  brighter: ['intensity'],
  dimmer: ['intensity'],
  bold: ['weight'],
  bolder: ['weight'],
  heavier: ['weight'],
  thicker: ['width'],
  thinner: ['width'],
  play: ['playing'],
  start: ['playing'],
  stop: ['playing'],
  pause: ['playing'],
  glossy: ['roughness'],
  shiny: ['roughness'],
  matte: ['roughness'],
  rough: ['roughness'],
  move: ['position'],
};

/** The words of parameter names a word stands for; `withChanges` false leaves out the `changeSynonyms`. */
export function synonymsOf(word: string, stemmed: string, withChanges: boolean): readonly string[] {
  const named = nameSynonyms[stemmed] ?? nameSynonyms[word] ?? [];
  if (!withChanges) return named;
  return [...named, ...(changeSynonyms[stemmed] ?? changeSynonyms[word] ?? [])];
}
