/**
 * A bounded list of problems: at most MAX_ERRORS kept, every one counted, messages cut
 * to a fixed length (user text inside them is quoted with a bound already).
 */
import { quote } from '#tool-kit';
import type { Issue } from './schema-compile.js';
import { MAX_ERRORS } from './schema-compile.js';

export const MAX_MESSAGE_CHARS = 300;

export function boundText(text: string, max = MAX_MESSAGE_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Quotes a name or value from the input for a message, short enough that a huge key cannot crowd it out. */
export const quoteName = (text: string) => quote(text, 60);

export class IssueCollector {
  readonly issues: Issue[] = [];
  count = 0;
  constructor(private readonly provider?: string) {}

  add(path: string, keyword: string, message: string, params?: Record<string, unknown>): void {
    this.count++;
    if (this.issues.length >= MAX_ERRORS) return;
    this.issues.push({
      path,
      keyword,
      message: boundText(message),
      ...(params ? { params } : {}),
      ...(this.provider ? { provider: this.provider } : {}),
    });
  }

  /** Takes issues found elsewhere (tagged with the provider), with their total. */
  addAll(list: { issues: Issue[]; count: number }): void {
    for (const i of list.issues) {
      if (this.issues.length >= MAX_ERRORS) break;
      this.issues.push({
        ...i,
        message: boundText(i.message),
        ...(this.provider ? { provider: this.provider } : {}),
      });
    }
    this.count += list.count;
  }

  get full(): boolean {
    return this.issues.length >= MAX_ERRORS;
  }
}
