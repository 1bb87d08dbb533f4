/** Small DOM helpers: every string becomes a text node, never markup. */
export type Child = Node | string | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  for (const child of children) if (child) node.append(child);
  return node;
}

/** A JSON object member, or undefined: results are read without trusting their shape. */
export function member(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A button that copies `content()`; it says "Copied" for a moment (announced: aria-live). */
export function copyButton(content: () => string, what: string): HTMLButtonElement {
  const button = el('button', { type: 'button', class: 'copy', 'aria-label': `Copy ${what}` }, 'Copy');
  const label = el('span', { class: 'visually-hidden', 'aria-live': 'polite' });
  button.append(label);
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(content());
      label.textContent = ' (copied)';
    } catch {
      label.textContent = ' (copy failed: select the text instead)';
    }
    setTimeout(() => {
      label.textContent = '';
    }, 2000);
  });
  return button;
}

/** A <pre><code> block with a copy button above it. */
export function codeBlock(code: string, what: string, cls = 'code'): HTMLElement {
  return el(
    'div',
    { class: cls },
    copyButton(() => code, what),
    el('pre', {}, el('code', {}, code)),
  );
}
