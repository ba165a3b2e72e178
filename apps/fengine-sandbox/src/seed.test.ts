import { describe, expect, it } from 'vitest';
import { engineInvestorSectionsSchema, findEngineField, investorSchema } from '@pagewright/shared';
import { SEED_INVESTOR_COUNT, seedInvestors } from './seed.js';

/** ISO 13616: an IBAN is valid when its rearranged digits leave 1 modulo 97. */
function isValidIban(iban: string): boolean {
  const rearranged = `${iban.slice(4)}${iban.slice(0, 4)}`.replace(/[A-Z]/g, (char) =>
    String(char.charCodeAt(0) - 55),
  );
  return BigInt(rearranged) % 97n === 1n;
}

describe('the sandbox seed', () => {
  const investors = seedInvestors();

  it('is the same on every start, with the two e2e investors first', () => {
    expect(seedInvestors()).toEqual(investors);
    expect(investors).toHaveLength(SEED_INVESTOR_COUNT);
    expect(investors.slice(0, 2).map(({ portfolioid, name }) => [portfolioid, name])).toEqual([
      ['PF-100001', 'Amélie Laurent'],
      ['PF-100002', 'Jonas Berg'],
    ]);
    expect(new Set(investors.map((investor) => investor.portfolioid)).size).toBe(SEED_INVESTOR_COUNT);
  });

  it('follows the contract: investors, sections, CHOICE values among their options, valid IBANs', () => {
    for (const investor of investors) {
      investorSchema.parse(investor);
      engineInvestorSectionsSchema.parse({ portfolioid: investor.portfolioid, sections: investor.sections });
      for (const field of investor.sections.flatMap((section) => section.fields)) {
        if (field.type === 'CHOICE') expect(field.options).toContain(field.value);
        if (field.type === 'DATE') expect(field.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        if (field.type === 'BOOLEAN') expect(['true', 'false']).toContain(field.value);
        if (field.type === 'NUMBER') expect(Number.isFinite(Number(field.value))).toBe(true);
      }
      const iban = findEngineField(investor.sections, 'bank.iban')?.field.value ?? '';
      expect(isValidIban(iban), `${investor.portfolioid} ${iban}`).toBe(true);
    }
    expect(investors.filter((investor) => investor.confirmationNumber === null)).toHaveLength(2);
    expect(investors[0]!.confirmationNumber).toMatch(/^CN-[2-9A-HJ-NP-Z]{5}$/);
  });
});
