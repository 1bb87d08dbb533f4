import { definePage } from '#tool-kit';

export default definePage({
  icon: 'palette',
  keywords: [
    'color',
    'colour',
    'palette',
    'hex',
    'rgb',
    'hsl',
    'oklch',
    'complementary',
    'contrast',
    'wcag',
    'apca',
    'tailwind',
    'design tokens',
    'converter',
  ],
  tags: ['color', 'design', 'css'],
  faqs: [
    {
      question: 'Why OKLCH?',
      answer:
        'OKLCH is perceptually uniform: rotating its hue or stepping its lightness changes the colour evenly, unlike HSL. Colours outside sRGB are gamut-mapped before hex, rgb, hsl and hwb are written: OKLCH chroma is reduced until the colour fits, keeping its lightness and hue.',
    },
    {
      question: 'What are the contrast numbers?',
      answer:
        'WCAG 2 contrast ratios of each colour against white and black text, from 1 to 21; 4.5 or more passes AA for body text. Beside them, `apca` gives the APCA lightness contrast (Lc, APCA-W3 0.0.98G-4g) of white and of black text on the colour: negative for light text on dark, positive for dark on light, with the bronze simple level it reaches (90 preferred for body text, 75 body minimum, 60 other content text, 45 large text and headlines, 30 spot text and non-text, 15 non-text only).',
    },
    {
      question: 'How do I use the palette in CSS, Tailwind or a design tool?',
      answer:
        'Add `export` (css, tailwind, tailwind-v3, tokens or all) and optionally `prefix` (default palette): css gives `:root { --color-palette-1: #…; }`, tailwind a Tailwind v4 `@theme` block, tailwind-v3 a `theme.extend.colors` config object, tokens W3C Design Tokens (DTCG 2025.10) JSON.',
    },
    {
      question: 'What about transparency?',
      answer:
        'convert keeps the alpha channel (8-digit hex, rgba(), `/ alpha`); generated palettes are opaque.',
    },
  ],
  howTo: [
    { title: 'Give a colour', description: 'Pass any CSS colour as `color` (generic: `a`).' },
    {
      title: 'Convert it',
      description: 'Call /convert/ with `format` (generic: mode convert, `b`), e.g. oklch.',
    },
    {
      title: 'Or generate a palette',
      description: 'Call /generate/ with `scheme` (generic: `mode`) and `count` (`b`), e.g. triadic and 6.',
    },
  ],
  relatedTools: ['qr-code', 'format-detective', 'html-markdown'],
});
