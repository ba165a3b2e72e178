import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineSection, FlowAction, Investor } from '@pagewright/shared';
import type { EngineHooks, FlowHooks } from '../flow/flow-types.js';
import { runFlow } from '../flow/run-flow.js';
import {
  LOCAL_POLICY as LOCAL,
  WITHOUT_PICTURES as fast,
  css,
  openFlowPage,
  type FlowPage,
} from '../test/flow-page.js';

/**
 * Modelled on Adminer's "New item" form for a MariaDB table (recorded against Adminer 4.8 while
 * building issue 25): an ENUM column is a radio group whose values are indexes ("1", "2"…) behind
 * the labels, with NULL and empty radios first; a DATE column is a plain text input; a TINYINT(1)
 * yes/no is a number input holding 0; a VARCHAR has a maxlength.
 */
const ADMIN_FORM = `<!doctype html><title>Insert: investor_onboarding - Adminer</title>
<form id="form"><table>
<tr><th>first_name</th><td><input name="fields[first_name]" maxlength="80"></td></tr>
<tr><th>iban</th><td><input name="fields[iban]" maxlength="8"></td></tr>
<tr><th>date_of_birth</th><td><input name="fields[date_of_birth]"></td></tr>
<tr><th>nationality</th><td id="nationality">
<label><input type="radio" name="fields[nationality]" value="" checked><i>NULL</i></label>
<label><input type="radio" name="fields[nationality]" value="0"><i>empty</i></label>
<label><input type="radio" name="fields[nationality]" value="1">French</label>
<label><input type="radio" name="fields[nationality]" value="2">Norwegian</label></td></tr>
<tr><th>politically_exposed</th><td><input type="number" value="0" name="fields[politically_exposed]"></td></tr>
<tr><th>risk</th><td><select name="fields[risk]"><option value=""></option><option value="l">Low</option>
<option value="m">Medium</option><option value="h">High</option></select></td></tr>
<tr><th>newsletter</th><td><input type="checkbox" name="fields[newsletter]"></td></tr>
<tr><th>note</th><td><span id="note">read only</span></td></tr>
</table></form>`;

const investor: Investor = { portfolioid: 'PF-1', name: 'Jonas Berg', confirmationNumber: null };
const sections: EngineSection[] = [
  {
    key: 'identity',
    name: 'Identity',
    fields: [
      { key: 'firstName', label: 'First name', value: 'Jonas', type: 'TEXT' },
      { key: 'dateOfBirth', label: 'Date of birth', value: '1971-11-02', type: 'DATE' },
      {
        key: 'nationality',
        label: 'Nationality',
        value: 'Norwegian',
        type: 'CHOICE',
        options: ['French', 'Norwegian'],
      },
      { key: 'middleName', label: 'Middle name', value: null, type: 'TEXT' },
    ],
  },
  {
    key: 'kyc',
    name: 'KYC',
    fields: [
      { key: 'politicallyExposed', label: 'PEP', value: 'true', type: 'BOOLEAN' },
      { key: 'riskProfile', label: 'Risk profile', value: 'High', type: 'CHOICE' },
      { key: 'newsletter', label: 'Newsletter', value: 'yes', type: 'BOOLEAN' },
      { key: 'sourceOfFunds', label: 'Source of funds', value: 'Lottery', type: 'CHOICE' },
    ],
  },
  {
    key: 'bank',
    name: 'Bank',
    fields: [{ key: 'iban', label: 'IBAN', value: 'NO9386011117947', type: 'TEXT' }],
  },
];

/** An engine already signed in, with Jonas chosen. */
const chosenEngine: EngineHooks = {
  setSignIn: () => Promise.resolve(),
  investors: () => Promise.resolve([investor]),
  chooseInvestor: () => Promise.resolve({ investor, sections }),
  chosen: () => ({ investor, sections }),
};

const hooks: FlowHooks = { ask: () => Promise.resolve(''), engine: chosenEngine };

let site: FlowPage;

beforeAll(async () => {
  site = await openFlowPage((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    response.end(ADMIN_FORM);
  });
}, 60_000);

afterAll(async () => {
  await site?.close();
});

function typeField(sequence: number, selector: string, field: string): FlowAction {
  return { sequence, type: 'TYPE_F_ENGINE_FIELD', target: css(selector), options: { text: field } };
}

async function run(actions: FlowAction[], engineHooks: FlowHooks = hooks) {
  return runFlow(
    site.page,
    [{ sequence: 1, type: 'NAVIGATE', options: { text: `${site.base}/` } }, ...actions],
    engineHooks,
    { navigationPolicy: LOCAL, ...fast },
  );
}

describe('TYPE_F_ENGINE_FIELD on an admin tool’s form', () => {
  it('types text and dates, picks a radio and an option by label, sets a yes/no number and a checkbox', async () => {
    const result = await run([
      typeField(10, 'input[name="fields[first_name]"]', 'identity.firstName'),
      typeField(20, 'input[name="fields[date_of_birth]"]', 'identity.dateOfBirth'),
      // The operator clicked the text of one option: the label around that radio stands for its group.
      typeField(30, '#nationality label:nth-of-type(3)', 'identity.nationality'),
      typeField(40, 'input[name="fields[politically_exposed]"]', 'kyc.politicallyExposed'),
      typeField(50, 'select[name="fields[risk]"]', 'kyc.riskProfile'),
      typeField(60, 'input[name="fields[newsletter]"]', 'kyc.newsletter'),
    ]);
    expect(result.status, result.error?.originalMessage).toBe('SUCCESS');
    const form = await site.page.evaluate(() =>
      Object.fromEntries(new FormData(document.querySelector('form') as HTMLFormElement).entries()),
    );
    expect(form).toMatchObject({
      'fields[first_name]': 'Jonas',
      'fields[date_of_birth]': '1971-11-02',
      'fields[nationality]': '2',
      'fields[politically_exposed]': '1',
      'fields[risk]': 'h',
      'fields[newsletter]': 'on',
    });
    expect(result.values[30]).toEqual({ kind: 'text', value: 'Norwegian' });
  });

  it('fails, never succeeds, when the form cannot hold the value', async () => {
    const cases: [FlowAction, RegExp][] = [
      // maxlength 8 cuts the IBAN: the page did not keep what was typed.
      [typeField(10, 'input[name="fields[iban]"]', 'bank.iban'), /did not take the value/],
      [typeField(10, '#nationality', 'kyc.sourceOfFunds'), /No radio button stands for "Lottery"/],
      [typeField(10, 'select[name="fields[risk]"]', 'kyc.sourceOfFunds'), /The list has no option "Lottery"/],
      [typeField(10, '#note', 'identity.firstName'), /not a form field/],
      [
        typeField(10, 'input[name="fields[first_name]"]', 'identity.middleName'),
        /has no value for "Middle name"/,
      ],
      [
        typeField(10, 'input[name="fields[first_name]"]', 'identity.passport'),
        /has no field "identity.passport"/,
      ],
    ];
    for (const [action, message] of cases) {
      const result = await run([action]);
      expect(result.status, String(message)).toBe('ERROR');
      expect(result.error?.originalMessage).toMatch(message);
    }
  });

  it('says to sign in, or to choose an investor first', async () => {
    const unsigned = await run([typeField(10, 'input[name="fields[first_name]"]', 'identity.firstName')], {
      ask: () => Promise.resolve(''),
    });
    expect(unsigned.error?.originalMessage).toBe('You must sign in to use this action');
    const unchosen = await run([typeField(10, 'input[name="fields[first_name]"]', 'identity.firstName')], {
      ask: () => Promise.resolve(''),
      engine: { ...chosenEngine, chosen: () => undefined },
    });
    expect(unchosen.error?.originalMessage).toMatch(/No investor was chosen/);
  });
});
