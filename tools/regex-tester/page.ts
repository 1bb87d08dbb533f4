import { definePage } from '#tool-kit';

export default definePage({
  icon: 'regex',
  keywords: [
    'regex',
    'regexp',
    'regular expression',
    'match',
    'replace',
    'split',
    'capture groups',
    'javascript',
    'redos',
    'catastrophic backtracking',
  ],
  tags: ['text', 'regex', 'debugging'],
  faqs: [
    {
      question: 'Why do I get only one match?',
      answer:
        'JavaScript semantics: without the g flag only the first match is found. Add g (flags "g" or /pattern/g) to list all; up to 1000 are listed, count has them all.',
    },
    {
      question: 'How do flags in /pattern/flags and the flags field combine?',
      answer:
        "A non-empty flags field replaces the literal's flags. In replace mode through the generic runtime (where c is the replacement), give the flags in the literal: /pattern/g.",
    },
    {
      question: 'What about slow patterns?',
      answer:
        'Each run has a time limit. A global match or replace that runs out of 3/4 of it stops with the matches found so far and timedOut: true. One single match attempt cannot be stopped: a catastrophic pattern (e.g. ^(a+)+$ with the u flag) ends with TIMEOUT and does not affect other requests. mode analyze tells beforehand whether a pattern is vulnerable.',
    },
    {
      question: 'How does analyze decide, and can it be wrong?',
      answer:
        'It runs recheck (pure JavaScript build, in the worker): automata theory when the pattern allows (exact), fuzzing otherwise (backreferences, lookarounds, large counted repeats; it can miss a slow input). It reports the worst-case complexity for a backtracking engine and an attack string. When its 400 ms budget runs out the status is unknown with reason timeout. V8 in this hub also falls back to a linear-time engine on excessive backtracking for patterns without the u flag, backreferences or lookarounds, so a vulnerable verdict matters most for code that runs the pattern elsewhere.',
    },
  ],
  howTo: [
    { title: 'Give the pattern', description: 'Pass `pattern` (generic: `a`), e.g. /(\\d{4})-(\\d{2})/g.' },
    { title: 'Give the text', description: 'Pass the subject text as `text` (`b`).' },
    {
      title: 'Pick the mode',
      description:
        'Set `mode` to match, test, replace or split; for replace, pass `replacement` (`c`). Set `mode` to analyze (or call /api/regex-tester/analyze/) to check the pattern for ReDoS.',
    },
  ],
  relatedTools: ['cron-expression', 'format-detective', 'token-counter'],
});
