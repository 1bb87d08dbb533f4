import { definePage } from '#tool-kit';

export default definePage({
  icon: 'git-compare',
  keywords: [
    'json diff',
    'yaml diff',
    'compare json',
    'json patch',
    'rfc 6902',
    'json merge patch',
    'rfc 7386',
    'apply patch',
    'json pointer',
    'structured diff',
  ],
  tags: ['data', 'diff', 'json'],
  faqs: [
    {
      question: 'How are arrays compared?',
      answer:
        'Index by index, without LCS or move detection: position i of left is compared with position i of right, extra items are added or removed at the end. Inserting an item at the front therefore reports every later position as replaced. In exchange every path points straight into left (remove, replace) or right (add), and the patch uses only add, remove and replace.',
    },
    {
      question: 'How is the text read?',
      answer:
        'A string is parsed as JSON first, then as YAML (core schema, one document, at most 50 alias expansions, no custom tags). To compare a plain string, send it as JSON text, e.g. "\\"hello\\"". Documents may nest 100 levels deep.',
    },
    {
      question: 'How are numbers compared?',
      answer:
        'As 64-bit floats, after parsing: 1.0 equals 1, and two integers past 2^53 (or decimals past ~17 digits) that round to the same double compare equal. When a side given as text holds such a number, `warnings` names it. Numbers past the float range (1e400, .inf) are refused.',
    },
    {
      question: 'Are all changes listed?',
      answer:
        'The first 1000 changes are listed (then `truncated` is true); `stats` always counts all of them. The patch is always complete: when it would exceed 100000 operations, patch mode is refused rather than returning part of it.',
    },
    {
      question: 'When is a merge patch not enough?',
      answer:
        'An RFC 7386 merge patch uses null to mean "remove this member", so it cannot set a member to null: when right holds such a null (under an object), applying the merge patch removes the member instead, `mergePatchLossless` is false and `warnings` names the paths. Arrays cannot be edited item by item either: an array that changed is sent whole (also named in `warnings`, though that loses nothing). Use patch mode (RFC 6902) for an exact, item-level patch.',
    },
    {
      question: 'What does apply check?',
      answer:
        'Every JSON Patch operation is checked before it is applied: its op, path (and from) as JSON Pointers that exist as own members (array indices without leading zeros, `-` only to append), a value where one is needed, a test that holds, no move into its own child. The first that fails refuses the whole patch with INVALID_INPUT naming the operation by index and its path. Paths through `__proto__` are refused; a result over 2097152 characters of JSON is refused (repeated copies could otherwise double the document each time).',
    },
  ],
  howTo: [
    {
      title: 'Give both documents',
      description: 'Send `left` (generic `a`) and `right` (`b`) as JSON or YAML text.',
    },
    {
      title: 'Read the changes',
      description:
        'Each change has `op` (add, remove, replace), a JSON Pointer `path`, and `oldValue`/`newValue`.',
    },
    {
      title: 'Get a patch',
      description:
        'Set `mode` to `patch` to also receive the RFC 6902 operations that turn left into right, or to `merge-patch` for an RFC 7386 merge patch (check `mergePatchLossless`).',
    },
    {
      title: 'Apply a patch',
      description:
        'POST `document`, `patch` and optionally `target` to `/api/structured-diff/apply/` (generic: mode `apply`, a, b, c); read `result`, and `matchesTarget`/`firstDifference` for the round-trip proof.',
    },
  ],
  relatedTools: ['format-detective', 'schema-generator', 'structured-output-validator'],
  hasApi: true,
});
