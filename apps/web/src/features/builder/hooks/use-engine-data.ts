import { useCallback, useState } from 'react';
import type { FserviceDto, ManagementDto } from '@pagewright/shared';

/** What an answer of the API may carry about the F-engine (POST /extractor/, the normalized reads). */
export interface EngineCarrier {
  managementDTO: ManagementDto | null;
  fserviceDTO: FserviceDto | null;
}

export interface EngineData {
  /** The engine's investors once the builder signed in to it; null before. */
  investors: ManagementDto['investors'] | null;
  /** The chosen investor and its sections; null before an investor was chosen. */
  fields: FserviceDto | null;
}

const NOTHING_KNOWN: EngineData = { investors: null, fields: null };

/**
 * What the builder knows of the F-engine for the investor and field dialogs: the last investors
 * and the last investor's sections any answer carried. A page read without them (a normalized
 * read sends empty sections while no investor is chosen) keeps what an earlier answer gave.
 */
export function useEngineData() {
  const [data, setData] = useState<EngineData>(NOTHING_KNOWN);
  const remember = useCallback((carrier: EngineCarrier) => {
    const { managementDTO, fserviceDTO } = carrier;
    const hasFields = fserviceDTO !== null && (fserviceDTO.sections.length > 0 || fserviceDTO.investor);
    if (!managementDTO && !hasFields) return;
    setData((current) => ({
      investors: managementDTO ? managementDTO.investors : current.investors,
      fields: hasFields ? fserviceDTO : current.fields,
    }));
  }, []);
  return { ...data, remember };
}
