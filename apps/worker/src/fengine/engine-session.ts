import type { EngineHooks, EngineSignInPart } from '@pagewright/automation';
import {
  ENGINE_MESSAGES,
  type EngineSection,
  type FserviceDto,
  type Investor,
  type ManagementDto,
} from '@pagewright/shared';
import {
  createEngineConnector,
  createSignedInEngine,
  normalizeEngineUrl,
  type SignedInEngine,
} from './engine-connector.js';
import type { EngineEgress } from './engine-policy.js';

export interface EngineSessionOptions {
  /** Where the session may reach an engine: operatorEngineEgress (engine-policy.ts). */
  egress: EngineEgress;
  timeoutMs?: number;
}

/** What the builder shows of the engine: its investors once signed in, the chosen one's sections. */
export interface EngineSnapshot {
  managementDTO: ManagementDto | null;
  fserviceDTO: FserviceDto | null;
}

/**
 * The F-engine of one run, validation or live builder session (EngineHooks): the sign-in asks give
 * URL, user and password in any order, and the third signs in; the investor ask lists the engine's
 * investors and reads the chosen one's sections, which TYPE_F_ENGINE_FIELD steps type from.
 * The password is held in memory for the session's life only (it re-signs in when the engine's
 * session lapses) and never leaves this object.
 */
export function createEngineSession(options: EngineSessionOptions) {
  const signIn: Partial<Record<EngineSignInPart, string>> = {};
  let engine: SignedInEngine | undefined;
  let investors: Investor[] | null = null;
  let chosen: { investor: Investor; sections: EngineSection[] } | undefined;

  async function connect(): Promise<void> {
    const { url, user, password } = signIn;
    if (url === undefined || user === undefined || password === undefined) return;
    const connector = createEngineConnector({
      baseUrl: url,
      assertAllowed: options.egress.assertAllowed,
      fetch: options.egress.fetch,
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
    const candidate = createSignedInEngine(connector, { username: user, password });
    await candidate.signIn();
    engine = candidate;
    investors = null;
    chosen = undefined;
  }

  function signedIn(): SignedInEngine {
    if (!engine) throw new Error(ENGINE_MESSAGES.signInRequired);
    return engine;
  }

  const hooks: EngineHooks = {
    async setSignIn(part, value) {
      const trimmed = part === 'password' ? value : value.trim();
      if (part === 'url') normalizeEngineUrl(trimmed); // a sentence now, not at the third answer
      signIn[part] = trimmed;
      engine = undefined;
      await connect();
    },

    async investors() {
      investors = await signedIn().allInvestors();
      return investors;
    },

    async chooseInvestor(portfolioid) {
      const current = signedIn();
      const investor =
        (investors ?? (await hooks.investors())).find((candidate) => candidate.portfolioid === portfolioid) ??
        undefined;
      if (!investor) throw new Error(ENGINE_MESSAGES.investorUnknown(portfolioid));
      const answer = await current.investorSections(portfolioid);
      chosen = { investor, sections: answer.sections };
      return chosen;
    },

    chosen: () => chosen,
  };

  return {
    hooks,
    isSignedIn: () => engine !== undefined,
    /** managementDTO / fserviceDTO as the builder's answers carry them. */
    snapshot(): EngineSnapshot {
      return {
        managementDTO: investors ? { investors } : null,
        fserviceDTO: chosen ? { investor: chosen.investor, sections: chosen.sections } : null,
      };
    },
  };
}

export type EngineSession = ReturnType<typeof createEngineSession>;
