import { definePage } from '#tool-kit';

export default definePage({
  icon: 'clock',
  keywords: ['cron', 'crontab', 'schedule', 'next run', 'timezone', 'dst', 'quartz', 'cron builder'],
  tags: ['scheduling', 'cron', 'time'],
  faqs: [
    {
      question: 'What happens with an invalid expression?',
      answer:
        'Parse mode answers with valid: false, an error naming the faulty field (e.g. "minute field: 61 is out of range 0-59") and field. Build mode refuses bad fields with INVALID_INPUT.',
    },
    {
      question: 'How are daylight-saving changes handled?',
      answer:
        'Runs are computed in the given time zone, whatever the size of its shifts (one hour, or 30 minutes as on Lord Howe Island). A time skipped by spring-forward is moved forward by the length of the gap (02:30 becomes 03:30 after a one-hour gap; 02:00 becomes 02:30 after a 30-minute one). A fixed time repeated at fall-back (fixed minute and hour, e.g. 30 1 * * * or 0 1-3 * * *) runs once, at its first occurrence; a job whose minute or hour field is a wildcard, a step or every value (0 * * * *, */15 1 * * *) runs in both passes of the repeated interval. Runs are strictly increasing, never duplicated, and every run carries its UTC offset.',
    },
    {
      question: 'What if both day of month and day of week are set?',
      answer:
        'As in standard (Vixie) cron, when neither field is * or ?, a day matching either runs: 0 0 31 4 5 runs at midnight on 31 April (never) or on any Friday in April, and its description says so ("on day 31 of the month, or on Friday, only in April").',
    },
    {
      question: 'Are 6-field expressions supported?',
      answer:
        'Yes: with 6 fields the first is seconds (0-59), as in node-cron, and the day of week is 0-7 = SUN-SAT, 0 and 7 both Sunday (Unix). For a Quartz 6-field expression (day of week 1-7 = SUN-SAT) name dialect quartz; 7 fields with ? in a day field are read as Quartz without it.',
    },
    {
      question: 'Which cron dialects are understood?',
      answer:
        'unix (Vixie cron and cron-parser: 5 fields, or 6 with seconds first), quartz (Quartz CronTrigger: seconds, optional year 1970-2099, ? in one day field, L, LW, nW, L-n, nL, n#k, day of week 1-7 = SUN-SAT) and eventbridge (AWS: cron(minute hour dayOfMonth month dayOfWeek year) with the Quartz day rules and years 1970-2199, or rate(5 minutes)). cron(...) and rate(...) are detected, as are 7 fields with ? in a day field (Quartz); anything else, 6-field Quartz included, is Unix unless dialect says otherwise.',
    },
    {
      question: 'How do the dialects handle daylight-saving changes?',
      answer:
        'unix: as Vixie cron documents, a time skipped by spring-forward still runs (shifted by the gap) and a wildcard job runs in both passes of a repeated hour, a fixed time once. quartz: the Quartz CronTrigger documentation says a time that does not occur is skipped and a repeated hour is not fired again (its firings were already made), and the tool does that. eventbridge: EventBridge Scheduler documents that a run at a time that does not exist is skipped and a repeated time runs only once; the tool does the same. EventBridge rules (not Scheduler) always run in UTC: leave timezone at UTC for them. rate() runs at fixed durations from its start, so DST does not move it.',
    },
    {
      question: 'How are expressions converted between dialects?',
      answer:
        'Mode convert with to = unix, quartz or eventbridge. Day of week is renumbered (Unix 0-6 vs 1-7), ? is added or removed, seconds and years are dropped with a warning where the target lacks them, rate() becomes cron only when its period divides an hour or a day evenly. When nothing faithful is possible (W days to Unix, a Unix either-day rule to Quartz, rate(7 minutes)) the answer is UNSUPPORTED_OPTION.',
    },
  ],
  howTo: [
    {
      title: 'Explain an expression',
      description: 'Call /api/cron-expression/parse/ with `expression` (generic: `a`, mode parse).',
    },
    {
      title: 'Get next runs in your zone',
      description: 'Add `timezone` (`b`), `count` (`c`) and optionally `from` for a fixed start instant.',
    },
    {
      title: 'Read a Quartz or EventBridge expression',
      description:
        'Send it to /parse/ as is (cron(...), rate(...) and 7 fields with ? are detected) or with `dialect` set to quartz or eventbridge (needed for 6-field Quartz).',
    },
    {
      title: 'Convert between dialects',
      description:
        'Call /api/cron-expression/convert/ with `expression` and `to` (generic: `a`, `b`, mode convert); read `warnings`.',
    },
    {
      title: 'Build an expression',
      description:
        'Call /api/cron-expression/build/ with `fields`, e.g. {"minute":"0","hour":"*/2","dayOfWeek":"1-5"}.',
    },
  ],
  relatedTools: ['regex-tester', 'format-detective'],
});
