/**
 * HTML built from templates where every interpolated value is escaped unless it is
 * already `Html`: tool text (names, FAQs, examples) can never become markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escaped for text and for quoted attribute values alike. */
export function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return part.map(render).join('');
  return esc(String(part));
}

/** Tagged template: `html\`<p>${text}</p>\``; arrays are joined, null/false dropped. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1]!;
  });
  return new Html(out);
}

/** Markup the caller vouches for (icons, already-built fragments). */
export function raw(markup: string): Html {
  return new Html(markup);
}

/**
 * Tool prose uses Markdown's backticks for names (`pattern`, `a`): those become <code>,
 * everything else stays escaped text.
 */
export function prose(text: string): Html {
  const parts = text.split('`');
  // An odd count of backticks leaves the last one as text.
  if (parts.length % 2 === 0) parts[parts.length - 2] += `\`${parts.pop()}`;
  return new Html(parts.map((p, i) => (i % 2 ? `<code>${esc(p)}</code>` : esc(p))).join(''));
}
