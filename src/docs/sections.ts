/**
 * Generated sections: the parts of a document between `<!-- name:start -->` and
 * `<!-- name:end -->` that `npm run docs` writes from the code.
 */

/**
 * Replaces every generated section of `text` (the document `file`) with its current text.
 * A section written on one line (`<!-- count:start -->twelve<!-- count:end -->`) stays
 * inline, inside its sentence; any other is a block between its marker lines.
 */
export function applySections(text: string, sections: Record<string, string>, file = 'the document'): string {
  let out = text;
  for (const [name, body] of Object.entries(sections)) {
    const re = new RegExp(`(<!-- ${name}:start -->)([\\s\\S]*?)(<!-- ${name}:end -->)`);
    if (!re.test(out))
      throw new Error(`${file} has no section '${name}' (<!-- ${name}:start --> ... <!-- ${name}:end -->)`);
    out = out.replace(re, (_m, open: string, now: string, close: string) =>
      now.includes('\n') || body.includes('\n') ? `${open}\n${body}\n${close}` : `${open}${body}${close}`,
    );
  }
  return out;
}

const NUMBER_WORDS =
  'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  );

/** How prose says a count: a word up to twenty, digits above. */
export function numberWord(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}
