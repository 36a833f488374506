/** A unit as a family and the factor that turns it into the family's base unit. */
export interface UnitMeaning {
  readonly family: string;
  readonly factor: number;
}

const units: Record<string, UnitMeaning> = {
  ms: { family: 'time', factor: 1 },
  millisecond: { family: 'time', factor: 1 },
  milliseconds: { family: 'time', factor: 1 },
  s: { family: 'time', factor: 1000 },
  sec: { family: 'time', factor: 1000 },
  secs: { family: 'time', factor: 1000 },
  second: { family: 'time', factor: 1000 },
  seconds: { family: 'time', factor: 1000 },
  min: { family: 'time', factor: 60_000 },
  minute: { family: 'time', factor: 60_000 },
  minutes: { family: 'time', factor: 60_000 },
  hz: { family: 'frequency', factor: 1 },
  hertz: { family: 'frequency', factor: 1 },
  khz: { family: 'frequency', factor: 1000 },
  'm/s': { family: 'speed', factor: 1 },
  'km/h': { family: 'speed', factor: 1 / 3.6 },
  kph: { family: 'speed', factor: 1 / 3.6 },
  mph: { family: 'speed', factor: 0.44704 },
  '%': { family: 'fraction', factor: 0.01 },
  percent: { family: 'fraction', factor: 0.01 },
  fraction: { family: 'fraction', factor: 1 },
  px: { family: 'length', factor: 1 },
  pixel: { family: 'length', factor: 1 },
  pixels: { family: 'length', factor: 1 },
  pt: { family: 'length', factor: 4 / 3 },
  bpm: { family: 'tempo', factor: 1 },
  db: { family: 'level', factor: 1 },
  decibel: { family: 'level', factor: 1 },
  decibels: { family: 'level', factor: 1 },
  'degrees/s': { family: 'rotation', factor: 1 },
  'deg/s': { family: 'rotation', factor: 1 },
  'degrees per second': { family: 'rotation', factor: 1 },
  rpm: { family: 'rotation', factor: 6 },
  degree: { family: 'angle', factor: 1 },
  degrees: { family: 'angle', factor: 1 },
  deg: { family: 'angle', factor: 1 },
  '°': { family: 'angle', factor: 1 },
  em: { family: 'em', factor: 1 },
  ch: { family: 'ch', factor: 1 },
};

/** What a unit written by the user or a manifest means; undefined for units the demo does not know. */
export function unitMeaning(unit: string | undefined): UnitMeaning | undefined {
  if (unit === undefined) return undefined;
  return units[unit.trim().toLowerCase()];
}

export interface NumberWithUnit {
  readonly value: number;
  readonly unit?: string;
}

const numberPattern = /(-?\d+(?:\.\d+)?)\s*(degrees per second|km\/h|m\/s|deg\/s|degrees\/s|%|°|[a-z]+)?/gi;

/** Every number in the text, each with the unit word right after it when that word is a unit. */
export function numbersWithUnits(text: string): NumberWithUnit[] {
  return [...text.matchAll(numberPattern)].map((match) => {
    const unit = match[2];
    return unit !== undefined && unitMeaning(unit) ? { value: Number(match[1]), unit } : { value: Number(match[1]) };
  });
}

/** The number in the parameter's own unit, or undefined when the user's unit is of another kind. */
export function convertToUnit(number: NumberWithUnit, parameterUnit: string | undefined): number | undefined {
  if (number.unit === undefined) return number.value;
  const from = unitMeaning(number.unit);
  const to = unitMeaning(parameterUnit);
  if (!from || !to || from.family !== to.family) return undefined;
  return (number.value * from.factor) / to.factor;
}
