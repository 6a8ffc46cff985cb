import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

import { formatCentavos } from '@/utils/money';

import type { DayTotals } from '../api/payments';
import { longDay, shortDay } from '../utils/periods';

/** Whole reais for the axis (`R$ 1.200`): the exact amounts are in the tooltip and the table. */
function axisReais(centavos: number): string {
  return formatCentavos(centavos).replace(/,\d{2}$/, '');
}

/**
 * What was received on each São Paulo day of the period, as bars (recharts), with the same
 * figures as a table for anyone who does not read the chart.
 */
export function DailyChart({ days }: { days: DayTotals[] }) {
  return (
    <figure className="daily-chart">
      <figcaption>Recebido por dia</figcaption>
      <div className="daily-chart-canvas" aria-hidden="true">
        <ResponsiveContainer width="100%" height={220}>
          <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
            <CartesianGrid vertical={false} stroke="#d5e1df" />
            <XAxis dataKey="day" tickFormatter={shortDay} tick={{ fontSize: 12 }} minTickGap={8} />
            <YAxis tickFormatter={axisReais} tick={{ fontSize: 12 }} width={72} allowDecimals={false} />
            <Tooltip
              formatter={(value) => [formatCentavos(Number(value)), 'Recebido']}
              labelFormatter={(label) => (typeof label === 'string' ? longDay(label) : '')}
            />
            <Bar dataKey="receivedCentavos" name="Recebido" fill="#0b6b62" radius={[4, 4, 0, 0]} />
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
