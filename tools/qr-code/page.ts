import { definePage } from '#tool-kit';

export default definePage({
  icon: 'qr-code',
  keywords: ['qr', 'qr code', 'qrcode', 'barcode', 'svg', 'png', 'generator', 'url'],
  tags: ['image', 'encoding', 'qr'],
  faqs: [
    {
      question: 'How much data fits?',
      answer:
        'At most 2953 bytes at level L, 2331 at M, 1663 at Q and 1273 at H (more when the data is only digits, upper-case letters, space and $%*+-./:, the most when it is digits only). Longer data is refused with INVALID_INPUT saying the limit.',
    },
    {
      question: 'Is there a quiet zone?',
      answer:
        'Yes: the standard 4-module margin by default, included in the requested size. `margin` sets it from 0 to 16 modules; below 4, leave blank space around the code where it is placed.',
    },
    {
      question: 'Can I put a logo in the middle?',
      answer:
        'Set `logo` (0 to 0.3 of the width): the centre is left blank in the light colour and the error-correction level is raised until each error-correction block can repair the covered codewords using at most half its capacity (`errorCorrectionRaised` says so; a larger version is used if even H needs it). Place the logo inside `logoArea.box`.',
    },
    {
      question: 'Is the code checked?',
      answer:
        'Yes: every code is decoded back with jsQR (PNG: the image itself) and compared with the data; one that does not read back is refused unless `decodeCheck` is report or off.',
    },
    {
      question: 'Which version is used?',
      answer:
        'The smallest QR version (1 to 40) that holds the data at the chosen level; it is returned as version.',
    },
  ],
  howTo: [
    { title: 'Give the data', description: 'Pass the text or URL as `data` (generic: `a`).' },
    {
      title: 'Choose level and size',
      description: 'Optionally set `errorCorrection` (`b`: L M Q H) and `size` in pixels (`c`).',
    },
    { title: 'Pick the format', description: 'Set `format` (`mode`) to svg, png or utf8.' },
    {
      title: 'Style it for print',
      description:
        'Optionally set `dark`/`light` colours, the `margin` in modules, and `logo` (0 to 0.3) for a blank centre area; place the logo in `logoArea.box`.',
    },
  ],
  relatedTools: ['color-palette', 'api-header-builder'],
});
