/**
 * One number over time as an inline SVG line chart (no chart library: a polyline, a dot per point
 * with its value as a tooltip, the scale's top and the first and last days as labels).
 */
export interface TimePoint {
  time: number;
  value: number;
}

const WIDTH = 640;
const HEIGHT = 200;
const LEFT = 72;
const RIGHT = 16;
const TOP = 12;
const BOTTOM = 28;

const day = (time: number) => new Date(time).toISOString().slice(0, 10);
const count = (n: number) => n.toLocaleString('en-US');

/** The scale's top: the maximum rounded up to 1, 2 or 5 times a power of ten. */
export function niceTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  return [1, 2, 5, 10].map((m) => m * power).find((top) => top >= max) ?? 10 * power;
}

export function TimeChart({ points, label, unit }: { points: TimePoint[]; label: string; unit: string }) {
  const sorted = [...points].sort((a, b) => a.time - b.time);
  if (sorted.length === 0) return null;
  const first = sorted[0].time;
  const last = sorted[sorted.length - 1].time;
  const top = niceTop(Math.max(...sorted.map((p) => p.value)));
  const plotW = WIDTH - LEFT - RIGHT;
  const plotH = HEIGHT - TOP - BOTTOM;
  const x = (t: number) => LEFT + (last === first ? plotW / 2 : ((t - first) / (last - first)) * plotW);
  const y = (v: number) => TOP + plotH - (Math.max(0, v) / top) * plotH;
  const summary =
    sorted.length === 1
      ? `${label}: ${count(sorted[0].value)} ${unit} on ${day(first)}`
      : `${label}: from ${count(sorted[0].value)} ${unit} on ${day(first)} to ${count(sorted[sorted.length - 1].value)} ${unit} on ${day(last)}, ${sorted.length} points`;
  return (
    <svg class="time-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={summary} preserveAspectRatio="xMidYMid meet">
      {[0, top / 2, top].map((v) => (
        <g key={v}>
          <line class="grid" x1={LEFT} x2={WIDTH - RIGHT} y1={y(v)} y2={y(v)} />
          <text class="axis" x={LEFT - 6} y={y(v) + 4} text-anchor="end">
            {count(v)}
          </text>
        </g>
      ))}
      <text class="axis" x={LEFT} y={HEIGHT - 8} text-anchor="start">
        {day(first)}
      </text>
      {last !== first && (
        <text class="axis" x={WIDTH - RIGHT} y={HEIGHT - 8} text-anchor="end">
          {day(last)}
        </text>
      )}
      <polyline class="line" points={sorted.map((p) => `${x(p.time).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ')} />
      {sorted.map((p, i) => (
        <circle key={i} class="dot" cx={x(p.time)} cy={y(p.value)} r={3.5}>
          <title>{`${day(p.time)}: ${count(p.value)} ${unit}`}</title>
        </circle>
      ))}
    </svg>
  );
}
