import type { EngineField, EngineSection, Investor } from '@pagewright/shared';

/** One seeded investor: its list entry and its sections of fields. */
export interface SeedInvestor extends Investor {
  sections: EngineSection[];
}

const NATIONALITIES = [
  'French',
  'Norwegian',
  'German',
  'Swedish',
  'Italian',
  'Spanish',
  'Dutch',
  'British',
  'Irish',
  'Portuguese',
  'Belgian',
  'Swiss',
] as const;
const COUNTRIES = [
  'France',
  'Norway',
  'Germany',
  'Sweden',
  'Italy',
  'Spain',
  'Netherlands',
  'United Kingdom',
  'Ireland',
  'Portugal',
  'Belgium',
  'Switzerland',
] as const;
const SOURCES_OF_FUNDS = ['Salary', 'Inheritance', 'Business income', 'Investments'] as const;
const RISK_PROFILES = ['Low', 'Medium', 'High'] as const;

interface Person {
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  /** Index into NATIONALITIES / COUNTRIES. */
  country: number;
  street: string;
  city: string;
  postalCode: string;
  phone: string;
  bankCountry: string;
  bankCode: string;
  account: string;
  bic: string;
  sourceOfFunds: (typeof SOURCES_OF_FUNDS)[number];
  isPoliticallyExposed: boolean;
  riskProfile: (typeof RISK_PROFILES)[number];
  experienceYears: number;
}

/** The two the end-to-end suite types into a form: every value differs between them. */
const FIRST_TWO: Person[] = [
  {
    firstName: 'Amélie',
    lastName: 'Laurent',
    dateOfBirth: '1984-03-12',
    country: 0,
    street: '18 rue des Lilas',
    city: 'Lyon',
    postalCode: '69003',
    phone: '+33 6 12 34 56 78',
    bankCountry: 'FR',
    bankCode: '30006',
    account: '00001123456789012',
    bic: 'AGRIFRPPXXX',
    sourceOfFunds: 'Salary',
    isPoliticallyExposed: false,
    riskProfile: 'Medium',
    experienceYears: 7,
  },
  {
    firstName: 'Jonas',
    lastName: 'Berg',
    dateOfBirth: '1971-11-02',
    country: 1,
    street: 'Storgata 42',
    city: 'Oslo',
    postalCode: '0182',
    phone: '+47 912 34 567',
    bankCountry: 'NO',
    bankCode: '8601',
    account: '1117947',
    bic: 'DNBANOKKXXX',
    sourceOfFunds: 'Business income',
    isPoliticallyExposed: true,
    riskProfile: 'High',
    experienceYears: 22,
  },
];

const FIRST_NAMES = [
  'Sofia',
  'Lukas',
  'Ingrid',
  'Marco',
  'Lucía',
  'Daan',
  'Oliver',
  'Aoife',
  'Tiago',
  'Elise',
  'Noah',
  'Klara',
] as const;
const LAST_NAMES = [
  'Schneider',
  'Lindqvist',
  'Romano',
  'García',
  'de Vries',
  'Hughes',
  'Byrne',
  'Ferreira',
  'Peeters',
  'Meier',
  'Dubois',
  'Hansen',
] as const;
const CITIES = [
  ['Paris', '75011'],
  ['Bergen', '5003'],
  ['Hamburg', '20095'],
  ['Göteborg', '41104'],
  ['Milano', '20121'],
  ['Valencia', '46001'],
  ['Utrecht', '3511'],
  ['Leeds', 'LS1 4AP'],
  ['Cork', 'T12 X70A'],
  ['Porto', '4000-322'],
  ['Gent', '9000'],
  ['Basel', '4051'],
] as const;
const STREETS = [
  'Avenue Parmentier',
  'Kong Oscars gate',
  'Mönckebergstraße',
  'Kungsportsavenyen',
  'Via Torino',
  'Carrer de Colón',
  'Oudegracht',
  'Park Row',
  'Oliver Plunkett Street',
  'Rua de Santa Catarina',
  'Veldstraat',
  'Freie Strasse',
] as const;
const BANKS = [
  ['FR', '20041', 'PSSTFRPPXXX'],
  ['NO', '1503', 'NDEANOKKXXX'],
  ['DE', '20050550', 'HASPDEHHXXX'],
  ['SE', '5000', 'ESSESESSXXX'],
  ['IT', 'X0306909606', 'BCITITMMXXX'],
  ['ES', '21000418', 'CAIXESBBXXX'],
  ['NL', 'RABO', 'RABONL2UXXX'],
  ['GB', 'NWBK601613', 'NWBKGB2LXXX'],
  ['IE', 'AIBK931152', 'AIBKIE2DXXX'],
  ['PT', '00350651', 'CGDIPTPLXXX'],
  ['BE', '539', 'GKCCBEBBXXX'],
  ['CH', '00762', 'UBSWCHZH80A'],
] as const;

/** A deterministic number in [0, modulo) for investor `n` and a salt (the seed never changes). */
function pick(n: number, salt: number, modulo: number): number {
  return (n * 7919 + salt * 104_729 + ((n * salt) % 31)) % modulo;
}

function generatedPerson(n: number): Person {
  const country = pick(n, 1, COUNTRIES.length);
  const [city, postalCode] = CITIES[country]!;
  const [bankCountry, bankCode, bic] = BANKS[pick(n, 2, BANKS.length)]!;
  return {
    firstName: FIRST_NAMES[n % FIRST_NAMES.length]!,
    lastName: LAST_NAMES[pick(n, 3, LAST_NAMES.length)]!,
    dateOfBirth: `${1950 + pick(n, 4, 50)}-${String(1 + pick(n, 5, 12)).padStart(2, '0')}-${String(1 + pick(n, 6, 28)).padStart(2, '0')}`,
    country,
    street: `${STREETS[country]} ${1 + pick(n, 7, 120)}`,
    city,
    postalCode,
    phone: `+${30 + pick(n, 8, 20)} ${String(600_000_000 + pick(n, 9, 99_999_999))}`,
    bankCountry,
    bankCode,
    account: String(10_000_000 + pick(n, 10, 89_999_999)).padStart(10, '0'),
    bic,
    sourceOfFunds: SOURCES_OF_FUNDS[pick(n, 11, SOURCES_OF_FUNDS.length)]!,
    isPoliticallyExposed: pick(n, 12, 9) === 0,
    riskProfile: RISK_PROFILES[pick(n, 13, RISK_PROFILES.length)]!,
    experienceYears: pick(n, 14, 30),
  };
}

/** An IBAN whose check digits are right (ISO 13616: mod 97 of the rearranged digits is 1). */
function iban(countryCode: string, bban: string): string {
  const digits = `${bban}${countryCode}00`
    .toUpperCase()
    .split('')
    .map((char) => (/[A-Z]/.test(char) ? String(char.charCodeAt(0) - 55) : char))
    .join('');
  const check = String(98n - (BigInt(digits) % 97n)).padStart(2, '0');
  return `${countryCode}${check}${bban}`;
}

/** Confirmation numbers like CN-7Q4K2 (no 0/O or 1/I, as engines print them for people). */
function confirmationNumber(n: number): string {
  const alphabet = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
  let code = '';
  let state = (Math.imul(n + 1, 2_654_435_761) ^ 0x5bd1e995) >>> 0;
  for (let i = 0; i < 5; i++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    code += alphabet[(state >>> 16) % alphabet.length];
  }
  return `CN-${code}`;
}

const text = (key: string, label: string, value: string): EngineField => ({
  key,
  label,
  value,
  type: 'TEXT',
});
const choice = (key: string, label: string, value: string, options: readonly string[]): EngineField => ({
  key,
  label,
  value,
  type: 'CHOICE',
  options: [...options],
});

function sectionsOf(person: Person): EngineSection[] {
  const holder = `${person.firstName} ${person.lastName}`;
  const emailName = `${person.firstName}.${person.lastName}`
    .normalize('NFD')
    .replace(/[^A-Za-z.]/g, '')
    .toLowerCase();
  return [
    {
      key: 'identity',
      name: 'Identity',
      fields: [
        text('firstName', 'First name', person.firstName),
        text('lastName', 'Last name', person.lastName),
        { key: 'dateOfBirth', label: 'Date of birth', value: person.dateOfBirth, type: 'DATE' },
        choice('nationality', 'Nationality', NATIONALITIES[person.country]!, NATIONALITIES),
        text(
          'taxId',
          'Tax identification number',
          `${person.bankCountry}${person.dateOfBirth.replace(/-/g, '')}${person.account.slice(-3)}`,
        ),
        text('email', 'E-mail', `${emailName}@example.com`),
        text('phone', 'Phone', person.phone),
      ],
    },
    {
      key: 'address',
      name: 'Address',
      fields: [
        text('street', 'Street', person.street),
        text('city', 'City', person.city),
        text('postalCode', 'Postal code', person.postalCode),
        choice('country', 'Country', COUNTRIES[person.country]!, COUNTRIES),
      ],
    },
    {
      key: 'bank',
      name: 'Bank account',
      fields: [
        text('iban', 'IBAN', iban(person.bankCountry, `${person.bankCode}${person.account}`)),
        text('bic', 'BIC', person.bic),
        text('accountHolder', 'Account holder', holder),
      ],
    },
    {
      key: 'kyc',
      name: 'KYC questionnaire',
      fields: [
        choice('sourceOfFunds', 'Source of funds', person.sourceOfFunds, SOURCES_OF_FUNDS),
        {
          key: 'politicallyExposed',
          label: 'Politically exposed person',
          value: String(person.isPoliticallyExposed),
          type: 'BOOLEAN',
        },
        choice('riskProfile', 'Risk profile', person.riskProfile, RISK_PROFILES),
        {
          key: 'investmentExperienceYears',
          label: 'Years of investment experience',
          value: String(person.experienceYears),
          type: 'NUMBER',
        },
      ],
    },
  ];
}

export const SEED_INVESTOR_COUNT = 25;
/** Investors without a confirmation number (the engine has not confirmed them yet). */
const UNCONFIRMED = new Set([8, 19]);

/** The seed: 25 investors, PF-100001 "Amélie Laurent" and PF-100002 "Jonas Berg" first. */
export function seedInvestors(): SeedInvestor[] {
  return Array.from({ length: SEED_INVESTOR_COUNT }, (_, index) => {
    const person = FIRST_TWO[index] ?? generatedPerson(index);
    return {
      portfolioid: `PF-${100_001 + index}`,
      name: `${person.firstName} ${person.lastName}`,
      confirmationNumber: UNCONFIRMED.has(index) ? null : confirmationNumber(index),
      sections: sectionsOf(person),
    };
  });
}
