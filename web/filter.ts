/** The filter box of /tools/: hides the tools whose name, description and keywords miss a typed word. */
export function initFilter(box: HTMLElement): void {
  const input = box.querySelector('input');
  const count = box.querySelector('[role="status"]');
  if (!input || !count) return;
  const cards = [...document.querySelectorAll<HTMLElement>('[data-search]')];
  const sections = [...document.querySelectorAll<HTMLElement>('[data-category]')];
  const apply = () => {
    const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const card of cards) {
      const haystack = card.dataset.search ?? '';
      card.hidden = !words.every((w) => haystack.includes(w));
      if (!card.hidden) shown++;
    }
    for (const section of sections) section.hidden = !section.querySelector('[data-search]:not([hidden])');
    count.textContent = !words.length
      ? ''
      : shown
        ? `${shown} of ${cards.length} tools match.`
        : `No tool matches “${input.value.trim()}”.`;
  };
  input.addEventListener('input', apply);
  box.hidden = false;
  apply();
}
