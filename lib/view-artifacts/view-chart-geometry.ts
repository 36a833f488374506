import type { ChartData } from '../protocol/view-artifact-data';

export const CHART_SIZE = { width: 360, height: 200, left: 44, right: 22, top: 10, bottom: 28 } as const;

export interface ChartTick {
  position: number;
  label: string;
}

export interface ChartGeometry {
  xTicks: ChartTick[];
  yTicks: ChartTick[];
  /** Line charts: one SVG path per series (gaps where a value is null). */
  paths: string[];
  /** Line charts: a marker per value, so a point between two gaps shows too. */
  points: { x: number; y: number; value: number }[][];
  /** Bar charts: the bars of each series. */
  bars: { x: number; y: number; width: number; height: number; value: number }[][];
  zeroY: number;
}

function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const scaled = raw / magnitude;
  return (scaled <= 1 ? 1 : scaled <= 2 ? 2 : scaled <= 5 ? 5 : 10) * magnitude;
}

function formatTick(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(4)));
}

function valueRange(data: ChartData): [number, number] {
  const values = data.series.flatMap((series) => series.values.filter((value): value is number => value !== null));
  let low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (low === high) high = low + 1;
  const step = niceStep(high - low, 4);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  return [low, high];
}

/** Where everything of a small line or bar chart goes, in SVG units; the component only draws it. */
export function chartGeometry(data: ChartData): ChartGeometry {
  const { width, height, left, right, top, bottom } = CHART_SIZE;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  const [low, high] = valueRange(data);
  const y = (value: number) => top + plotHeight - ((value - low) / (high - low)) * plotHeight;
  const count = data.x.values.length;
  const bar = data.type === 'bar';
  const slot = plotWidth / Math.max(1, bar ? count : count - 1);
  const x = (index: number) => left + (bar ? slot * (index + 0.5) : count === 1 ? plotWidth / 2 : slot * index);
  const step = niceStep(high - low, 4);
  const yTicks: ChartTick[] = [];
  for (let value = low; value <= high + step / 2; value += step)
    yTicks.push({ position: y(value), label: formatTick(value) });
  const every = Math.ceil(count / 8);
  const xTicks = data.x.values.flatMap((value, index) =>
    index % every === 0 ? [{ position: x(index), label: String(value) }] : [],
  );
  const paths = bar
    ? []
    : data.series.map((series) =>
        series.values
          .map((value, index) => (value === null ? '' : `${x(index).toFixed(1)},${y(value).toFixed(1)}`))
          .join(' ')
          .split(/ {2,}|^ | $/)
          .filter(Boolean)
          .map((run) => `M${run.trim().split(' ').join(' L')}`)
          .join(' '),
      );
  const points = bar
    ? []
    : data.series.map((series) =>
        series.values.flatMap((value, index) => (value === null ? [] : [{ x: x(index), y: y(value), value }])),
      );
  const barWidth = (slot * 0.8) / data.series.length;
  const bars = bar
    ? data.series.map((series, seriesIndex) =>
        series.values.flatMap((value, index) => {
          if (value === null) return [];
          const top = Math.min(y(value), y(0));
          return [
            {
              x: x(index) - slot * 0.4 + barWidth * seriesIndex,
              y: top,
              width: Math.max(1, barWidth - 1),
              height: Math.abs(y(value) - y(0)),
              value,
            },
          ];
        }),
      )
    : [];
  return { xTicks, yTicks, paths, points, bars, zeroY: y(0) };
}
