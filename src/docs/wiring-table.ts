/** One row of the plugins table: a part of the app as src/wiring.ts lists it. */
export interface WiringRow {
  kind: 'plugin' | 'routes';
  name: string;
  adds: string;
}

/**
 * The plugins table of docs/architecture.md ("Plugins"), in registration order. The rows
 * come from the app layer (src/wiring.ts), which this layer may not import: its callers
 * (`npm run docs`, the docs test, the scaffold) pass them.
 */
export function wiringTable(rows: readonly WiringRow[]): string {
  const lines = ['| # | part | what it adds |', '|---|---|---|'];
  rows.forEach((row, i) => {
    const name = row.kind === 'plugin' ? `\`${row.name}\`` : `routes: \`${row.name}\``;
    lines.push(`| ${i + 1} | ${name} | ${row.adds} |`);
  });
  return lines.join('\n');
}
