/**
 * Realistic values for loosely constrained schema nodes, chosen by property name. The
 * result is a json-schema-faker `faker` keyword (a method path, or `{path: [args]}`);
 * user-written `faker` keywords are stripped earlier, so only these fixed calls run.
 * A hint only narrows what the schema allows: it is added when no format, pattern,
 * enum, const, bound or tight length applies.
 */
type Hint = string | Record<string, unknown[]>;

const STRING_BY_NAME: Record<string, string> = {
  name: 'person.fullName',
  fullname: 'person.fullName',
  displayname: 'person.fullName',
  author: 'person.fullName',
  firstname: 'person.firstName',
  givenname: 'person.firstName',
  lastname: 'person.lastName',
  surname: 'person.lastName',
  familyname: 'person.lastName',
  username: 'internet.username',
  login: 'internet.username',
  handle: 'internet.username',
  email: 'internet.email',
  emailaddress: 'internet.email',
  phone: 'phone.number',
  phonenumber: 'phone.number',
  mobile: 'phone.number',
  avatar: 'image.avatar',
  avatarurl: 'image.avatar',
  url: 'internet.url',
  website: 'internet.url',
  homepage: 'internet.url',
  domain: 'internet.domainName',
  hostname: 'internet.domainName',
  ip: 'internet.ipv4',
  ipaddress: 'internet.ipv4',
  city: 'location.city',
  country: 'location.country',
  countrycode: 'location.countryCode',
  state: 'location.state',
  address: 'location.streetAddress',
  street: 'location.streetAddress',
  streetaddress: 'location.streetAddress',
  zip: 'location.zipCode',
  zipcode: 'location.zipCode',
  postcode: 'location.zipCode',
  postalcode: 'location.zipCode',
  timezone: 'location.timeZone',
  company: 'company.name',
  companyname: 'company.name',
  organization: 'company.name',
  jobtitle: 'person.jobTitle',
  bio: 'person.bio',
  title: 'lorem.sentence',
  description: 'lorem.sentence',
  summary: 'lorem.sentence',
  comment: 'lorem.sentence',
  message: 'lorem.sentence',
  word: 'lorem.word',
  tag: 'lorem.word',
  slug: 'lorem.slug',
  color: 'color.human',
  currency: 'finance.currencyCode',
  iban: 'finance.iban',
  product: 'commerce.productName',
  productname: 'commerce.productName',
  category: 'commerce.department',
  department: 'commerce.department',
  uuid: 'string.uuid',
  guid: 'string.uuid',
  password: 'internet.password',
};

/** Endings checked when the whole name is not in the table (`userEmail`, `profile_url`). */
const STRING_SUFFIXES = [
  'email',
  'url',
  'phone',
  'city',
  'country',
  'address',
  'username',
  'firstname',
  'lastname',
];

const INTEGER_RANGES: [RegExp, number, number][] = [
  [/^(id|ID|Id|.*_id|.*[a-z0-9](Id|ID))$/, 1, 100000],
  [/^age$/i, 18, 90],
  [/^year$/i, 1990, 2030],
  [/^(rating|stars|score)$/i, 1, 5],
  [/^(page|version)$/i, 1, 10],
  [/^(count|total|quantity|qty|stock|size|length)$/i, 0, 100],
];

const NUMBER_BY_NAME: Record<string, Hint> = {
  lat: 'location.latitude',
  latitude: 'location.latitude',
  lng: 'location.longitude',
  lon: 'location.longitude',
  longitude: 'location.longitude',
  price: 'commerce.price',
  amount: 'commerce.price',
  cost: 'commerce.price',
  total: 'commerce.price',
  balance: 'commerce.price',
};

const key = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const CONSTRAINTS = [
  'format',
  'pattern',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];

/** Adds a hint (or a date format) to a sanitised node when its name and looseness allow. */
export function addHint(node: Record<string, unknown>, name: string | undefined): void {
  if (CONSTRAINTS.some((k) => node[k] !== undefined) || node.$ref !== undefined) return;
  if (node.type === 'string') {
    // Every hint yields well under 200 characters; a tighter maxLength keeps the plain generator.
    if (
      ((node.minLength as number | undefined) ?? 0) > 3 ||
      ((node.maxLength as number | undefined) ?? 200) < 200
    )
      return;
    if (name !== undefined && /(_at|At)$/.test(name)) node.format = 'date-time';
    else if (name !== undefined && /(^|_)date$|Date$/i.test(name)) node.format = 'date';
    else node.faker = stringHint(name);
  } else if (node.type === 'integer') {
    const [, min, max] = INTEGER_RANGES.find(([re]) => name !== undefined && re.test(name)) ?? [
      null,
      0,
      1000,
    ];
    node.faker = { 'number.int': [{ min, max }] };
  } else if (node.type === 'number') {
    node.faker = (name !== undefined && NUMBER_BY_NAME[key(name)]) || {
      'number.float': [{ min: 0, max: 1000, fractionDigits: 2 }],
    };
  }
}

function stringHint(name: string | undefined): Hint {
  if (name === undefined) return { 'lorem.words': [{ min: 1, max: 3 }] };
  const k = key(name);
  const exact = STRING_BY_NAME[k];
  if (exact) return exact;
  const suffix = STRING_SUFFIXES.find((s) => k.endsWith(s));
  return suffix ? STRING_BY_NAME[suffix]! : { 'lorem.words': [{ min: 1, max: 3 }] };
}

/** `emails` → `email`, for the items of an array property. */
export function singular(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  if (/ies$/.test(name) && name.length > 4) return `${name.slice(0, -3)}y`;
  return /[^s]s$/.test(name) && name.length > 3 ? name.slice(0, -1) : name;
}
