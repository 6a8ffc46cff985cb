import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { formatCentavos } from '@/utils/money';

import type { DayTotals } from '../api/payments';
import { longDay, shortDay } from '../utils/periods';

/**
 * An axis tick: whole reais (`R$ 1.200`), as every tick is a whole number of reais. A no-break
 * space keeps "R$" with its number (recharts breaks a tick wider than the axis at a space).
 */
export function axisReais(centavos: number): string {
  return formatCentavos(centavos).replace(/,00$/, '').replace(' ', '\u00a0');
}

/** The y-axis' width in px: its longest label at 12 px (about 7.5 px a character) and a margin. */
export function axisWidth(ticks: readonly number[]): number {
  const longest = Math.max(0, ...ticks.map((tick) => axisReais(tick).length));
  return Math.ceil(longest * 7.5) + 12;
}

/**
 * Ticks from zero past the tallest bar, a step of 1, 2 or 5 × 10ⁿ reais apart, in centavos: each
 * one is a whole number of reais, so its label is exact.
 */
export function reaisTicks(maxCentavos: number): number[] {
  const maxReais = Math.max(1, Math.ceil(maxCentavos / 100));
  let step = 1;
  while (maxReais / step > 4) {
    const digits = String(step);
    step = digits.startsWith('1') ? step * 2 : digits.startsWith('2') ? (step / 2) * 5 : step * 2;
  }
  const ticks = [0];
  while ((ticks[ticks.length - 1] ?? 0) < maxReais * 100) ticks.push(ticks.length * step * 100);
  return ticks;
}

/**
 * What was received on each São Paulo day of the period, as bars (recharts), with the same
 * figures as a table for anyone who does not read the chart.
 */
export function DailyChart({ days }: { days: DayTotals[] }) {
  const ticks = reaisTicks(Math.max(0, ...days.map((day) => day.receivedCentavos)));
  return (
    <figure className="daily-chart">
      <figcaption>Recebido por dia</figcaption>
      <div className="daily-chart-canvas" aria-hidden="true">
        <ResponsiveContainer width="100%" height={220}>
          {/* The right margin leaves room for half the last day's label, centred on its bar. */}
          <BarChart data={days} margin={{ top: 8, right: 24, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke="#d5e1df" />
            <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 12 }} minTickGap={8} />
            <YAxis
              tickFormatter={axisReais}
              ticks={ticks}
              domain={[0, ticks[ticks.length - 1] ?? 0]}
              tick={{ fontSize: 12 }}
              width={axisWidth(ticks)}
            />
            <Tooltip
              formatter={(value) => [formatCentavos(Number(value)), 'Recebido']}
              labelFormatter={(label) => (typeof label === 'string' ? longDay(label) : '')}
            />
            {/* No animation: when the data changes (a payment arrives, a statement is imported) the
                bars would slide from the old days' places, showing a moment of wrong days. */}
            <Bar
              dataKey="receivedCentavos"
              name="Recebido"
              fill="#0b6b62"
              radius={[4, 4, 0, 0]}
              isAnimationActive={false}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <details>
        <summary>Ver os valores de cada dia</summary>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Dia</th>
              <th scope="col">Pagamentos</th>
              <th scope="col">Recebido</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <td>{longDay(day.day)}</td>
                <td>{day.payments}</td>
                <td>{formatCentavos(day.receivedCentavos)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
