import { definePage } from '#tool-kit';

export default definePage({
  icon: 'file-search',
  keywords: [
    'format detection',
    'json',
    'yaml',
    'toml',
    'csv',
    'tsv',
    'xml',
    'ini',
    'ndjson',
    'converter',
    'json to yaml',
    'csv to json',
  ],
  tags: ['data', 'conversion', 'parsing'],
  faqs: [
    {
      question: 'How is the confidence computed?',
      answer:
        'Each format gets a heuristic score from 0 to 1: the text must parse with that format, and syntax specific to it raises the score. Scores are not probabilities. When a text is valid in several formats (JSON is also YAML), the more specific format wins.',
    },
    {
      question: 'Why is a conversion refused?',
      answer:
        'Not every format can hold every shape of data: CSV and TSV need an array of flat objects, TOML and INI need a top-level table and have no null, NDJSON needs a top-level array, INI cannot hold arrays of tables nor keys with "=" (or "]" in a section name, or __proto__), XML cannot hold control characters or unpaired surrogates. The error names the value that does not fit.',
    },
    {
      question: 'What is lost in a conversion?',
      answer:
        'CSV, TSV, XML and INI store text only: on reading, true/false and plain numbers become booleans and numbers, and an empty CSV cell becomes null. XML attributes become "@name" keys and a repeated element becomes an array; TOML dates become ISO strings. YAML is read with the core schema: no custom tags, and aliases are limited. DOCTYPE entities in XML are never expanded. Every conversion into TOML, CSV, TSV, XML or INI is read back: when that would not give the same data (a string "123" in CSV, a one-item array or padded text in XML), `warnings` names the first differences.',
    },
  ],
  howTo: [
    { title: 'Paste the text', description: 'Send it as `input` (generic: `a`).' },
    {
      title: 'Detect',
      description:
        'Call /api/format-detective/detect/ (generic mode `detect`) to get `format`, `confidence` and `candidates`.',
    },
    {
      title: 'Convert',
      description:
        'Call /api/format-detective/convert/ with `to` (generic `b`), and `from` (`c`) if you know the source format.',
    },
  ],
  relatedTools: ['structured-diff', 'schema-generator', 'structured-output-validator'],
  hasApi: true,
});
