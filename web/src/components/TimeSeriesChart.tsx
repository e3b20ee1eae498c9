/**
 * A time-series line chart (uPlot: small, fast, canvas). Colours come from the CSS variables of
 * styles/global.css, so it follows light and dark; it resizes with its container (375 px screens).
 * For assistive technology the figure has a text summary (role=img + label) of what it shows.
 */
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { formatCount, formatDay } from "../lib/format";
import { timeTickLabels, timeTickSplits } from "../lib/time-axis";

export interface ChartSeries {
  label: string;
  /** One value per time; null or undefined where nothing was measured (a gap). */
  values: (number | null | undefined)[];
  /** A CSS variable name such as "--chart-1". */
  colorVar: string;
  /** "right": its own scale and axis on the right (e.g. likes beside views, 10× smaller). */
  axis?: "left" | "right";
}

interface Props {
  /** Accessible name and caption, e.g. "Views over time". */
  title: string;
  /** Unix seconds, ascending. */
  times: number[];
  series: ChartSeries[];
  height?: number;
  /** The buckets of the points: days (daily points) or hours and scrapes; the time axis is ticked and labelled by it (lib/time-axis.ts). */
  xUnit?: "time" | "day";
}

const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim() || "#888";

function summary(title: string, times: number[], series: ChartSeries[]): string {
  if (times.length === 0) return `${title}: no points yet.`;
  const last = series.map((s) => `${s.label} ${formatCount(s.values[s.values.length - 1])}`).join(", ");
  const day = (seconds: number) => formatDay(new Date(seconds * 1000).toISOString());
  const from = day(times[0]);
  const to = day(times[times.length - 1]);
  return `${title}: ${times.length} points from ${from} to ${to}; latest ${last}.`;
}

export function TimeSeriesChart({ title, times, series, height = 240, xUnit = "time" }: Props) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const resolution = xUnit === "day" ? "day" : "hour";
    const axis = { stroke: cssVar("--muted"), grid: { stroke: cssVar("--border"), width: 1 }, ticks: { stroke: cssVar("--border") } };
    const options: uPlot.Options = {
      width: el.clientWidth || 320,
      height,
      series: [
        {},
        ...series.map((s) => ({
          label: s.label,
          scale: s.axis === "right" ? "right" : "y",
          stroke: cssVar(s.colorVar),
          width: 2,
          points: { show: times.length < 60 },
          spanGaps: true,
          value: (_u: uPlot, v: number | null) => formatCount(v),
        })),
      ],
      axes: [
        {
          ...axis,
          // Whole buckets, about one per 90 px, each labelled once (never the same day on several ticks).
          splits: (u: uPlot, _axis: number, min: number, max: number) => timeTickSplits(min, max, resolution, Math.floor(u.width / 90)),
          values: (_u: uPlot, ticks: number[]) => timeTickLabels(ticks, resolution),
        },
        { ...axis, scale: "y", size: 56, values: (_u, ticks) => ticks.map((t) => formatCount(t)) },
        ...(series.some((s) => s.axis === "right")
          ? [
              {
                ...axis,
                scale: "right",
                side: 1 as const,
                size: 56,
                grid: { show: false },
                values: (_u: uPlot, ticks: number[]) => ticks.map((t) => formatCount(t)),
              },
            ]
          : []),
      ],
      // One point alone would stretch the time axis over years: show the day around it instead.
      scales: { x: { time: true, range: times.length === 1 ? () => [times[0]! - 43_200, times[0]! + 43_200] : undefined } },
      legend: { show: true },
      cursor: { drag: { x: false, y: false } },
    };
    const chart = new uPlot(options, [times, ...series.map((s) => s.values.map((v) => v ?? null))] as uPlot.AlignedData, el);
    const resize = new ResizeObserver(() => chart.setSize({ width: el.clientWidth, height }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [times, series, height, xUnit]);

  return (
    <figure className="chart">
      <figcaption className="visually-hidden">{title}</figcaption>
      <div ref={box} role="img" aria-label={summary(title, times, series)} />
    </figure>
  );
}
