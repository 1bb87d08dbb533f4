// The page content of `uuid`: what its page at /tools/uuid/ and the catalogue show.
export default {
  icon: 'hash',
  keywords: ['uuid', 'guid', 'uuidv4', 'uuidv7', 'rfc 9562', 'identifier', 'random'],
  tags: ['identifiers', 'generation'],
  faqs: [
    {
      question: 'Version 4 or version 7?',
      answer:
        'Version 4 is 122 random bits: nothing about it can be guessed. Version 7 starts with the Unix time in milliseconds, so keys made later sort later, which keeps database indexes compact; it reveals when it was made.',
    },
    {
      question: 'Are the UUIDs of one run in order?',
      answer: 'Version 7 UUIDs of one run are returned in ascending order; version 4 UUIDs have no order.',
    },
  ],
  howTo: [
    { title: 'Pick the version', description: 'Set `version` to v4 (default) or v7 (generic: `mode`).' },
    { title: 'Say how many', description: 'Set `count` (generic: `a`), 1 to 100; default 1.' },
  ],
};
