/** What the bureau is asked about a verified lead: its person and its address as the ZIP catalog gave it. */
import type { Lead } from '../leads/index.ts';
import type { BureauSubject } from '../bureau/index.ts';

/** Null when the lead lacks its person or address (the PIN confirmation refuses it before any query). */
export function subjectOf(lead: Lead): BureauSubject | null {
  const { person, address } = lead;
  if (!person || !address) return null;
  return {
    rfc: person.rfc,
    firstName: person.firstName,
    secondName: person.secondName,
    lastName: person.lastName,
    secondLastName: person.secondLastName,
    birthDate: person.birthDate,
    address: {
      street: address.street,
      number: address.number,
      interior: address.interior,
      zipCode: address.zipCode,
      neighborhood: address.neighborhood,
      municipality: address.municipality,
      state: address.state.name,
      city: address.city,
      stateId: address.state.id,
    },
  };
}
