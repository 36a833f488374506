import type { ChartData } from '@/lib/protocol/view-artifact-data';
import { CHART_SIZE, chartGeometry } from '@/lib/view-artifacts/view-chart-geometry';

/** A small line or bar chart drawn as SVG from checked numbers; the data is also there as a table for screen readers. */
export function ArtifactChart({ data, title }: { data: ChartData; title: string }) {
  const geometry = chartGeometry(data);
  const { width, height, left, right, bottom } = CHART_SIZE;
  const unit = data.y?.unit ? ` (${data.y.unit})` : '';
  return (
    <figure className="artifact-chart">
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${data.type} chart: ${title}`}>
        {geometry.yTicks.map((tick) => (
          <g key={tick.label} className="chart-grid">
            <line x1={left} x2={width - right} y1={tick.position} y2={tick.position} />
            <text x={left - 4} y={tick.position} textAnchor="end" dominantBaseline="middle">
              {tick.label}
            </text>
          </g>
        ))}
        <line className="chart-axis" x1={left} x2={width - right} y1={geometry.zeroY} y2={geometry.zeroY} />
        {geometry.xTicks.map((tick, index) => (
          <text key={index} className="chart-x" x={tick.position} y={height - bottom + 14} textAnchor="middle">
            {tick.label}
          </text>
        ))}
        {geometry.paths.map((path, index) => (
          <path key={index} className={`chart-line chart-series-${index}`} d={path} />
        ))}
        {geometry.points.map((points, index) =>
          points.map((point, pointIndex) => (
            <circle
              key={`${index}-${pointIndex}`}
              className={`chart-point chart-series-${index}`}
              cx={point.x}
              cy={point.y}
              r={2.5}
            />
          )),
        )}
        {geometry.bars.map((bars, index) =>
          bars.map((bar, barIndex) => (
            <rect
              key={`${index}-${barIndex}`}
              className={`chart-bar chart-series-${index}`}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
            />
          )),
        )}
      </svg>
      <figcaption className="chart-legend">
        {data.series.map((series, index) => (
          <span key={index} className="chart-legend-item">
            <span className={`chart-swatch chart-series-${index}`} aria-hidden="true" />
            {series.name}
          </span>
        ))}
        {data.x.label && <span className="chart-x-label">x: {data.x.label}</span>}
        {(data.y?.label || unit) && (
          <span className="chart-y-label">
            y: {data.y?.label ?? ''}
            {unit}
          </span>
        )}
      </figcaption>
      <table className="visually-hidden">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{data.x.label ?? 'x'}</th>
            {data.series.map((series, index) => (
              <th key={index} scope="col">
                {series.name}
                {unit}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.x.values.map((value, row) => (
            <tr key={row}>
              <th scope="row">{String(value)}</th>
              {data.series.map((series, index) => (
                <td key={index}>{series.values[row] ?? ''}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
