/** CSV and TSV with papaparse: the first row is the header, every other row one object. */
import Papa from 'papaparse';
import { ToolInputError } from '#tool-kit';
import { childPath, describe, inferScalar, isObject, type Json, type JsonObject, setKey } from './model.js';

export type Delimiter = ',' | '\t';
export const MAX_COLUMNS = 1000;
export const MAX_CELLS = 1_000_000;

const label = (delimiter: Delimiter): string => (delimiter === ',' ? 'CSV' : 'TSV');

/** Raw rows (strings), blank lines skipped; throws on unbalanced quotes or ragged rows. */
export function readRows(text: string, delimiter: Delimiter): string[][] {
  const result = Papa.parse<string[]>(text, { delimiter, header: false, skipEmptyLines: true });
  const error = result.errors[0];
  if (error) {
    const row = error.row === undefined ? '' : ` (row ${error.row + 1})`;
    throw new ToolInputError(`input is not valid ${label(delimiter)}: ${error.message}${row}`);
  }
  const rows = result.data;
  const width = rows[0]?.length ?? 0;
  if (width > MAX_COLUMNS)
    throw new ToolInputError(`${label(delimiter)} has more than ${MAX_COLUMNS} columns`);
  rows.forEach((row, i) => {
    if (row.length !== width) {
      throw new ToolInputError(
        `input is not valid ${label(delimiter)}: row ${i + 1} has ${row.length} fields, the header has ${width}`,
      );
    }
  });
  return rows;
}

export function parseTable(text: string, delimiter: Delimiter): Json[] {
  const [header = [], ...rows] = readRows(text, delimiter);
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name))
      throw new ToolInputError(`${label(delimiter)} header names the column "${name}" twice`);
    seen.add(name);
  }
  return rows.map((row) => {
    const record: JsonObject = {};
    header.forEach((name, i) => {
      setKey(record, name, inferScalar(row[i] ?? '', true));
    });
    return record;
  });
}

type Cell = string | number | boolean | null;

/** Writes an array of flat objects; columns are the union of keys in first-seen order. */
export function writeTable(value: Json, delimiter: Delimiter): string {
  const name = label(delimiter);
  if (!Array.isArray(value)) {
    const hint = isObject(value) ? ' (wrap a single record in [ ])' : '';
    throw new ToolInputError(
      `${name} needs an array of flat objects, one per row; the data is ${describe(value)}${hint}`,
    );
  }
  const fields: string[] = [];
  const index = new Map<string, number>();
  value.forEach((row, r) => {
    if (!isObject(row)) {
      throw new ToolInputError(`${name} rows must be objects; ${childPath('', r)} is ${describe(row)}`);
    }
    for (const [key, cell] of Object.entries(row)) {
      if (cell !== null && typeof cell === 'object') {
        throw new ToolInputError(
          `${name} cells must be scalars; ${childPath(childPath('', r), key)} is ${describe(cell)} (nested data cannot be written as ${name}; use JSON or YAML)`,
        );
      }
      if (!index.has(key)) {
        index.set(key, fields.length);
        fields.push(key);
        if (fields.length > MAX_COLUMNS)
          throw new ToolInputError(`${name} output would have over ${MAX_COLUMNS} columns`);
      }
    }
  });
  if (fields.length * value.length > MAX_CELLS) {
    throw new ToolInputError(`${name} output would have over ${MAX_CELLS} cells`);
  }
  const data = value.map((row) => {
    const cells: string[] = new Array<string>(fields.length).fill('');
    for (const [key, cell] of Object.entries(row as Record<string, Cell>)) {
      cells[index.get(key)!] = cell === null ? '' : String(cell);
    }
    return cells;
  });
  const text = Papa.unparse({ fields, data }, { delimiter, newline: '\n' });
  return text === '' ? '' : `${text}\n`;
}
